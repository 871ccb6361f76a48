import { memory, tensor, type Tensor } from '@tensorflow/tfjs-core';
import * as attention from '@attnkit/attention';
import * as backends from '@attnkit/backends';
import * as hub from '@attnkit/hub';
import * as models from '@attnkit/models';
import * as tokenizers from '@attnkit/tokenizers';
import * as errors from '@attnkit/errors';
import * as kernels from '@attnkit/kernels';
import * as masks from '@attnkit/masks';
import * as nn from '@attnkit/nn';
import * as scorers from '@attnkit/scorers';
import * as sentence from '@attnkit/sentence';
import * as train from '@attnkit/train';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'entry points';
/** Hostile first arguments: every public function and class gets each of them. */
const HOSTILE: ReadonlyArray<readonly [string, () => unknown]> = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['NaN', () => NaN],
  ['{}', () => ({})],
  ['"x"', () => 'x'],
  ['a bool tensor', () => tensor([true], [1], 'bool')],
];
/** Where a hostile-looking first argument is valid input, and what the function then does. */
const ACCEPTED: Readonly<Record<string, string>> = {
  'errors.describeValue': 'describes any value (it exists for messages)',
  'errors.messageText': 'makes any value text for a message (it exists so that reporting never throws)',
  'errors.messageTexts': 'makes any value a list of texts for a message (a non-list is none)',
  'kernels.isFrozenInt8Weight': 'answers for any value: false unless it is a frozen Int8Weight',
  'errors.isTensorLike': 'answers for any value',
  'nn.int8QkvFusable': 'answers for any value: false unless given three fusable Int8Linear layers',
  'nn.checkInputNormModule:undefined': 'no norm module: undefined (a block\'s inputNorm option is optional)',
  'errors.formatShape': 'formats any value for a message (a non-shape is described)',
  'backends.callBackend': 'the first argument only names the caller in messages',
  'backends.assertBackendReady': 'the first argument only names the caller in messages',
  'hub.describeSource': 'describes any source for a message',
  'backends.ensureBackend:"x"': 'a string only names the caller in messages; a backend is ready (or wasm is brought up)',
  'backends.namedOutputs:{}': 'an empty record of outputs: no outputs',
  'backends.namedOutputs:a bool tensor': 'one tensor is one output',
  'masks.checkBoolMask:a bool tensor': 'a bool tensor is a mask',
  'masks.maskToBias:a bool tensor': 'a bool tensor is a mask',
  'masks.toTorchBoolMask:a bool tensor': 'a bool tensor is a mask',
  'masks.fromTorchBoolMask:a bool tensor': 'a bool tensor is a PyTorch bool mask',
  'hub.writeSafetensors:{}': 'no tensors: an empty, valid file',
  'tokenizers.checkTokenizerRegexes:{}': 'an object with no compiled patterns has none to refuse',
  'tokenizers.lowercaseTokenizerJson:{}': 'a tokenizer.json object; a Lowercase normalizer is added',
  'hub.checkModelSource:"x"': 'a relative folder path is a model source',
  'hub.modelFiles:"x"': 'a relative folder path: a reader, whose reads say what is missing',
  'hub.hubSourceOf': 'answers for any value: undefined when it names no Hugging Face model',
  'hub.parseHubId:"x"': 'a string that is no Hub id: undefined',
  'hub.repoFolderName:"x"': 'a legacy single-name id (as bert-base-uncased): models--x',
  'hub.resolveHubOptions:undefined': 'no options: the HF_* variables and defaults',
  'backends.memoryBudget:undefined': 'no backend named: the active backend\'s budget',
  'hub.scanHubCache:undefined': 'no options: the models in the default cache (none here)',
  'hub.scanHubCache:{}': 'no options: the models in the default cache (none here)',
  'hub.resolveHubOptions:{}': 'no options: the HF_* variables and defaults',
  'hub.parseInt8QuantizationConfig:undefined': 'no quantization_config: a float folder',
  'hub.parseInt8QuantizationConfig:null': 'a null quantization_config (as transformers writes for none): a float folder',
  'hub.parseInt8QuantizationConfig:{}': 'a quantization_config naming no method attnkit reads: not int8 (the loader then judges the tensors)',
  'kernels.erf64:NaN': 'NaN is a number: erf(NaN) is NaN',
  'kernels.originalWasmKernel:"x"': 'a kernel name: undefined, as tfjs-wasm registers no kernel "x"',
  'nn.ModuleDict:{}': 'an empty record: a ModuleDict with no modules',
  'models.parseGpt2Config:{}': "an empty config.json: GPT2Config's defaults (the 124 M GPT-2 small)",
  'models.checkNotRemoteCode:{}': 'a config.json naming no model_type and no auto_map: nothing to refuse',
  'tokenizers.regexHazard:"x"': 'a valid pattern with no hazard',
  'errors.boundMessage': 'bounds any value as a message (it exists for messages)',
  'errors.summarizeList': 'summarises any value for a message (a non-list is "none")',
  'train.isNoDecayParameter:"x"': 'a parameter name: "x" is decayed',
  'train.splitGloss:"x"': 'a gloss with no examples',
  'train.glossKey:"x"': 'a gloss text, normalised',
  'kernels.int8Kernel:undefined': 'no name: the fastest int8 kernel the engine validates',
  'kernels.fusedAttentionKernel:undefined': 'no name: the fastest fused attention kernel the engine validates',
  'kernels.f32Kernel:undefined': 'no name: the fastest float32 kernel the engine validates',
  'kernels.erfF32:NaN': 'NaN is a number: erf(NaN) is NaN, as in the wasm kernels',
  'kernels.geluF32:NaN': 'NaN is a number: GELU(NaN) is NaN, as in the wasm kernels',
  'sentence.activationOfTorchPath': 'answers for any value: undefined when it names no activation attnkit has',
  'sentence.isDecoderModel': 'answers for any value: false unless it is a decoder model',
};
const PACKAGES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [['errors', errors], ['backends', backends], ['masks', masks], ['nn', nn], ['scorers', scorers], ['attention', attention], ['hub', hub], ['tokenizers', tokenizers], ['models', models], ['sentence', sentence], ['kernels', kernels], ['train', train]];

/** Calls (or constructs) `fn` with `argument`; disposes what comes back. */
async function call(fn: (...args: unknown[]) => unknown, argument: unknown): Promise<string> {
  const dispose = (value: unknown) => {
    if (value !== argument) (value as { dispose?: () => void } | null)?.dispose?.(); // a function may hand its (valid) argument back
  };
  const isClass = /^class[\s{]/.test(Function.prototype.toString.call(fn));
  const before = memory().numTensors;
  let result: unknown = isClass ? new (fn as unknown as new (...args: unknown[]) => unknown)(argument) : fn(argument);
  if (typeof (result as { then?: unknown } | null)?.then === 'function') result = await result;
  dispose(result);
  if (Array.isArray(result)) result.forEach(dispose);
  return memory().numTensors === before ? 'accepted' : 'accepted but left tensors';
}

/** Every exported function and class of every package, called with each hostile first argument. */
export const entryPointCases: CatalogueCase[] = PACKAGES.flatMap(([pkg, module]) =>
  Object.entries(module)
    .filter(([name, value]) => typeof value === 'function' && !/Error$/.test(name) && (value as { length: number }).length > 0)
    .flatMap(([name, fn]) =>
      HOSTILE.map(([label, make]) => {
        const accepted = ACCEPTED[`${pkg}.${name}:${label}`] ?? ACCEPTED[`${pkg}.${name}`];
        const input = `@attnkit/${pkg} ${name}(${label})`;
        const run = async () => {
          const argument = make();
          try {
            return await call(fn as (...args: unknown[]) => unknown, argument);
          } finally {
            (argument as Tensor | null | undefined)?.dispose?.();
          }
        };
        // any AttnkitError, with a message of bounded size
        if (accepted === undefined) return rejects(E, input, 'AttnkitError', /^[^]{10,1000}$/, run);
        return safely(E, input, `accepted: ${accepted}`, run, (v) => v === 'accepted');
      }),
    ),
);
