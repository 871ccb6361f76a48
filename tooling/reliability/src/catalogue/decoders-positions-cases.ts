import { readFileSync } from 'node:fs';
import { tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { modelFiles } from '@attnkit/hub';
import {
  DecoderForCausalLM, DecoderLayer, GPT2Attention, GPT2Block, GPT2LMHeadModel, GPT2MLP, GPT2Model, LlamaForCausalLM, LlamaModel, MistralForCausalLM, MistralModel,
  Qwen2ForCausalLM, Qwen2Model, Qwen3ForCausalLM, Qwen3Model, ROTARY_DECODER_CHECKPOINT_KEYS, RotaryDecoderModel, TextStream, causalLMStateFromStored, causalLMStoredTensors,
  checkDecoderSize, chooseToken, decoderParameterCount, decoderStateDict, loadDecoder, parseDecoderConfig, parseGenerationConfig, parseGpt2Config, parseLlamaConfig, parseQwen2Config,
  parseQwen3Config, readModelFolder, seededRandom, type CausalLMOptions, type DecoderCheckpoint, type DecoderConfig, type ModelFolder,
} from '@attnkit/models';
import { ChatTemplateError, checkTokenizerPattern, checkTokenizerRegexes, longestFirst, loadTokenizer, lowercaseTokenizerJson, precompiledNormalizer, regexHazard } from '@attnkit/tokenizers';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const DECODERS = repoPath('tooling/reference/fixtures/decoders/');
const GPT2 = `${DECODERS}gpt2/`; // learned positions, Conv1D weights, tied head; vocab 320, E 32, 2 layers
const QWEN3 = `${DECODERS}qwen3/`; // q/k norm, tied head
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const configJson = (family: string) => json(`${DECODERS}${family}/config.json`);
/** Parsed configs are plain, frozen-by-convention records: parsed once and shared. */
const CONFIGS = {
  gpt2: parseGpt2Config(configJson('gpt2')),
  llama: parseLlamaConfig(configJson('llama')),
  mistral: parseLlamaConfig(configJson('mistral')),
  qwen2: parseQwen2Config(configJson('qwen2')),
  qwen3: parseQwen3Config(configJson('qwen3')),
};
const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';
const ZEROS = 'null: built without values, zeros (documented DecoderCheckpoint: the causal LM around it loads the values)';
const CALLER = 'the caller only names the function in messages';
const LOAD_KEYS = ['onProgress', 'onNotice', 'signal', 'checkFinite', 'backend', 'fetch', 'hub', 'quantize'];
/** `caller` arguments (the last, optional position of the parsers and checks): any value only names the function in messages. */
function callerAccepted(position: number): Record<string, string> {
  return Object.fromEntries(['null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'].map((label) => [`${position}:${label}`, CALLER]));
}

/** Builds a module, runs `use` in a tidy scope, disposes the module (every case gets its own: no tensor outlives it). */
function withModule<M extends { dispose(): void; readonly isDisposed?: boolean }>(make: () => M, use: (module: M) => unknown = () => undefined): void {
  const module = make();
  try { tidy(() => { use(module); }); } finally { if (module.isDisposed !== true) module.dispose(); }
}
const ids = () => ({ inputIds: [[1, 2, 3]] });
const FORWARD_KEYS = ['inputIds', 'attentionMask', 'positionIds', 'pastKeyValues', 'useCache'];
/** A headless or causal decoder family: its constructor, and (for one of each kind) forward and createCache. */
type Build = (config: never, checkpoint?: DecoderCheckpoint, options?: never) => { dispose(): void };
function constructorCall(name: string, config: () => DecoderConfig, build: Build, optionKeys: readonly string[]): ValidCall {
  return { name, args: () => [config(), undefined, { seed: 1 }], call: ([c, k, o]) => withModule(() => build(c as never, k as never, o as never)), optional: [1, 2],
    options: { index: 2, keys: optionKeys }, accepted: { '1:null': ZEROS, 'seed:-1': SEED } };
}
const construct = <A extends unknown[], M>(Class: new (...args: A) => M) => (...args: A) => new Class(...args);

/** `DecoderForCausalLM` is the base the families extend; a causal LM of a new family extends it so (the protected constructor). */
class TinyCausalLM extends DecoderForCausalLM<Qwen3Model> {
  constructor(config: DecoderConfig, basePath: string, createBase: (checkpoint: DecoderCheckpoint, seed: number | undefined) => Qwen3Model, checkpoint: DecoderCheckpoint, options: CausalLMOptions) {
    super(config, basePath, createBase, checkpoint, options);
  }
}
const qwen3Base = (checkpoint: DecoderCheckpoint, seed: number | undefined) => new Qwen3Model(CONFIGS.qwen3, checkpoint, seed === undefined ? {} : { seed });

/** A read decoder folder (plain values, no tensors): read once. */
let qwen3Folder: Promise<ModelFolder<DecoderConfig>> | undefined;
const FOLDER = Symbol('the read qwen3 folder');
const readFolder = () => (qwen3Folder ??= readModelFolder(modelFiles(QWEN3), { parseConfig: (j) => parseDecoderConfig(j), kind: 'decoder', everyFamily: 'catalogue' }));
/** The qwen3 tokenizer (no tensors): loaded once. */
let qwen3Tokenizer: ReturnType<typeof loadTokenizer> | undefined;
const TOKENIZER = Symbol('the qwen3 tokenizer');
const tokenizer = () => (qwen3Tokenizer ??= loadTokenizer(QWEN3));
async function resolved(args: unknown[]): Promise<unknown[]> {
  return Promise.all(args.map(async (a) => (a === FOLDER ? readFolder() : a === TOKENIZER ? tokenizer() : a)));
}
const choice = () => ({ doSample: true, temperature: 0.7, topK: 3, topP: 0.9, minP: 0.05, repetitionPenalty: 1.2 });
const hidden = () => zeros([1, 3, 32]);
/** Stands for the rotary `cos` and `sin` [1, 3, D] of the layer options, made inside the call's tidy scope (a hostile value replaces it). */
const ROTARY = Symbol('the rotary cos and sin');
const layerOptions = () => ({ positionEmbeddings: ROTARY, attentionMask: undefined, cache: undefined });
function layerForward(x: unknown, o: unknown): void {
  withModule(() => new DecoderLayer(CONFIGS.qwen3, 0), (m) => {
    const given = o !== null && typeof o === 'object' && (o as { positionEmbeddings?: unknown }).positionEmbeddings === ROTARY ? { ...o, positionEmbeddings: { cos: zeros([1, 3, 16]), sin: zeros([1, 3, 16]) } } : o;
    return m.forward(x as Tensor, given as never);
  });
}
const gpt2Mask = () => tensor([[[[true, false, false], [true, true, false], [true, true, true]]]], [1, 1, 3, 3], 'bool');

const VALID_CALLS: readonly ValidCall[] = [
  // config parsers and size checks (pure)
  { name: 'models.parseDecoderConfig', args: () => [configJson('qwen2'), 'caller'], call: ([j, c]) => parseDecoderConfig(j, c as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'models.parseGpt2Config', args: () => [configJson('gpt2'), 'caller'], call: ([j, c]) => parseGpt2Config(j, c as string), optional: [1],
    accepted: { ...callerAccepted(1), '0:{}': "an empty config.json: GPT2Config()'s defaults, the 124M GPT-2 (documented, as transformers reads it)" } },
  { name: 'models.parseLlamaConfig', args: () => [configJson('llama'), 'caller'], call: ([j, c]) => parseLlamaConfig(j, c as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'models.parseQwen2Config', args: () => [configJson('qwen2'), 'caller'], call: ([j, c]) => parseQwen2Config(j, c as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'models.parseQwen3Config', args: () => [configJson('qwen3'), 'caller'], call: ([j, c]) => parseQwen3Config(j, c as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'models.parseGenerationConfig', args: () => [json(`${QWEN3}generation_config.json`), CONFIGS.qwen3, 'caller'], call: ([j, c, n]) => parseGenerationConfig(j, c as never, n as string), optional: [0, 2],
    accepted: { ...callerAccepted(2), '0:{}': 'an empty generation_config.json: the defaults of config.json (documented)' } },
  { name: 'models.checkDecoderSize', args: () => [CONFIGS.qwen3, 'caller'], call: ([c, n]) => checkDecoderSize(c as never, n as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'models.decoderParameterCount', args: () => [CONFIGS.llama], call: ([c]) => decoderParameterCount(c as never) },
  // constructors of every family (random initialisation, seeded)
  constructorCall('models.GPT2Model', () => CONFIGS.gpt2, construct(GPT2Model) as Build, ['seed']),
  constructorCall('models.GPT2LMHeadModel', () => CONFIGS.gpt2, construct(GPT2LMHeadModel) as Build, ['seed', 'generationConfig']),
  constructorCall('models.LlamaModel', () => CONFIGS.llama, construct(LlamaModel) as Build, ['seed']),
  constructorCall('models.LlamaForCausalLM', () => CONFIGS.llama, construct(LlamaForCausalLM) as Build, ['seed', 'generationConfig']),
  constructorCall('models.MistralModel', () => CONFIGS.mistral, construct(MistralModel) as Build, ['seed']),
  constructorCall('models.MistralForCausalLM', () => CONFIGS.mistral, construct(MistralForCausalLM) as Build, ['seed', 'generationConfig']),
  constructorCall('models.Qwen2Model', () => CONFIGS.qwen2, construct(Qwen2Model) as Build, ['seed']),
  constructorCall('models.Qwen2ForCausalLM', () => CONFIGS.qwen2, construct(Qwen2ForCausalLM) as Build, ['seed', 'generationConfig']),
  constructorCall('models.Qwen3Model', () => CONFIGS.qwen3, construct(Qwen3Model) as Build, ['seed']),
  constructorCall('models.Qwen3ForCausalLM', () => CONFIGS.qwen3, construct(Qwen3ForCausalLM) as Build, ['seed', 'generationConfig']),
  constructorCall('models.RotaryDecoderModel', () => CONFIGS.qwen2, construct(RotaryDecoderModel) as Build, ['seed']),
  { name: 'models.DecoderForCausalLM', args: () => [CONFIGS.qwen3, 'model', qwen3Base, null, { seed: 1 }], call: ([c, p, b, k, o]) => withModule(() => new TinyCausalLM(c as never, p as never, b as never, k as never, o as never)), optional: [3],
    options: { index: 4, keys: ['seed', 'generationConfig'] }, accepted: { '3:null': ZEROS, '1:"x"': 'a base path: the checkpoint names the base "x."', 'seed:-1': SEED } },
  // forward and createCache of the headless models (GPT-2's learned positions, the rotary families' shared forward)
  { name: 'models.GPT2Model.forward', args: () => [ids()], call: ([i]) => withModule(() => new GPT2Model(CONFIGS.gpt2, null), (m) => m.forward(i as never).lastHiddenState), options: { index: 0, keys: FORWARD_KEYS } },
  { name: 'models.RotaryDecoderModel.forward', args: () => [ids()], call: ([i]) => withModule(() => new Qwen3Model(CONFIGS.qwen3, null), (m) => m.forward(i as never).lastHiddenState), options: { index: 0, keys: FORWARD_KEYS } },
  { name: 'models.GPT2Model.createCache', args: () => [{ maxLength: 8 }], call: ([o]) => withModule(() => new GPT2Model(CONFIGS.gpt2, null), (m) => m.createCache(o as never).dispose()), optional: [0], options: { index: 0, keys: ['maxLength'] } },
  { name: 'models.RotaryDecoderModel.createCache', args: () => [{ maxLength: 8 }], call: ([o]) => withModule(() => new LlamaModel(CONFIGS.llama, null), (m) => m.createCache(o as never).dispose()), optional: [0], options: { index: 0, keys: ['maxLength'] } },
  { name: 'models.DecoderForCausalLM.forward', args: () => [{ ...ids(), logitsToKeep: 1 }], call: ([i]) => withModule(() => new GPT2LMHeadModel(CONFIGS.gpt2, null), (m) => m.forward(i as never).logits),
    options: { index: 0, keys: [...FORWARD_KEYS, 'logitsToKeep'] } },
  // the blocks a model is made of
  { name: 'models.DecoderLayer', args: () => [CONFIGS.qwen3, 0], call: ([c, i]) => withModule(() => new DecoderLayer(c as never, i as never)) },
  { name: 'models.DecoderLayer.forward', args: () => [hidden(), layerOptions()], call: ([x, o]) => layerForward(x, o), options: { index: 1, keys: ['positionEmbeddings', 'attentionMask', 'cache'] } },
  { name: 'models.GPT2Attention', args: () => [CONFIGS.gpt2, 0], call: ([c, i]) => withModule(() => new GPT2Attention(c as never, i as never)) },
  { name: 'models.GPT2Attention.forward', args: () => [hidden(), gpt2Mask(), undefined, {}], call: ([x, m, k, o]) => withModule(() => new GPT2Attention(CONFIGS.gpt2, 0), (a) => a.forward(x as never, m as never, k as never, o as never)), optional: [1, 2, 3],
    options: { index: 3, keys: ['inputNorm', 'residual'] } },
  { name: 'models.GPT2Block', args: () => [CONFIGS.gpt2, 1], call: ([c, i]) => withModule(() => new GPT2Block(c as never, i as never)) },
  { name: 'models.GPT2Block.forward', args: () => [hidden(), gpt2Mask(), undefined], call: ([x, m, k]) => withModule(() => new GPT2Block(CONFIGS.gpt2, 0), (a) => a.forward(x as never, m as never, k as never)), optional: [1, 2] },
  { name: 'models.GPT2MLP', args: () => [CONFIGS.gpt2], call: ([c]) => withModule(() => new GPT2MLP(c as never)) },
  { name: 'models.GPT2MLP.forward', args: () => [hidden(), {}], call: ([x, o]) => withModule(() => new GPT2MLP(CONFIGS.gpt2), (a) => a.forward(x as never, o as never)), optional: [1], options: { index: 1, keys: ['inputNorm', 'residual'] } },
  // generation helpers
  { name: 'models.chooseToken', args: () => [new Float32Array([0.5, 2, 1, -1]), choice(), [1], seededRandom(1)], call: ([l, c, s, r]) => chooseToken(l as never, c as never, s as never, r as never), optional: [2, 3],
    options: { index: 1, keys: ['doSample', 'temperature', 'topK', 'topP', 'minP', 'repetitionPenalty'] } },
  { name: 'models.TextStream', args: () => [TOKENIZER, [1, 2]], call: ([t, c]) => resolved([t, c]).then(([tk, ctx]) => new TextStream(tk as never, ctx as never)), optional: [1] },
  { name: 'models.TextStream.push', args: () => [5], call: ([i]) => tokenizer().then((tk) => new TextStream(tk, [1, 2]).push(i as never)) },
  // checkpoints
  { name: 'models.causalLMStoredTensors', args: () => [new Qwen3ForCausalLM(CONFIGS.qwen3, null)], call: ([m]) => causalLMStoredTensors(m as never) },
  { name: 'models.causalLMStateFromStored', args: () => [new GPT2LMHeadModel(CONFIGS.gpt2, null), new Map([['transformer.h.0.attn.c_attn.weight', { shape: [32, 96], values: new Float32Array(32 * 96) }]])], call: ([m, s]) => causalLMStateFromStored(m as never, s as never) },
  { name: 'models.decoderStateDict', args: () => [FOLDER, ROTARY_DECODER_CHECKPOINT_KEYS, { headless: false }], call: ([f, k, o]) => resolved([f]).then(([folder]) => decoderStateDict(folder as never, k as never, o as never)),
    options: { index: 2, keys: ['headless'] } },
  { name: 'models.loadDecoder', args: () => [GPT2, {}], call: ([s, o]) => loadDecoder(s as never, o as never).then((m) => m.dispose()), optional: [1], options: { index: 1, keys: LOAD_KEYS }, accepted: { 'hub:{}': 'no Hub options: the HF_* variables and defaults' } },
];

/** The decoder families' parsers, constructors, blocks, generation helpers and checkpoint helpers, every argument position and option key given each hostile value (a model built per case); Node only. */
export const decodersPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);

const errorDetails = () => ({ caller: 'caller', failure: 'raised', source: 'chat_template.jinja', templateMessage: 'no', message: 'the template raised' });
let charsmap: string | undefined;
/** The Precompiled normalizer's charsmap of an XLM-RoBERTa tokenizer.json (base64): read once. */
const precompiled = () => (charsmap ??= (json(repoPath('tooling/reference/fixtures/sentence/xlm-roberta-mean-normalize/tokenizer.json'))['normalizer'] as { precompiled_charsmap: string }).precompiled_charsmap);

const ERROR_KEYS = ['caller', 'failure', 'source', 'templateMessage', 'message'];
const ANY_DETAILS = 'an error class builds its error from whatever it is given (a non-string caller or message described), so reporting never throws (documented)';
/** Every hostile value at `width` positions and at `keys`: accepted (an error class). */
function anyDetails(width: number, keys: readonly string[]): Record<string, string> {
  const positions = ['undefined', 'null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'];
  const options = ['null', 'NaN', '"x"', '{}', '-1', 'a disposed tensor'];
  return Object.fromEntries([...Array.from({ length: width }, (_, p) => positions.map((l) => `${p}:${l}`)).flat(), ...keys.flatMap((k) => options.map((l) => `${k}:${l}`))].map((label) => [label, ANY_DETAILS]));
}

const TOKENIZER_CALLS: readonly ValidCall[] = [
  { name: 'tokenizers.ChatTemplateError', args: () => [errorDetails()], call: ([d]) => new ChatTemplateError(d as never), options: { index: 0, keys: ERROR_KEYS }, accepted: anyDetails(1, ERROR_KEYS) },
  { name: 'tokenizers.checkTokenizerPattern', args: () => [/\s+/u, 'pre_tokenizer', 'caller'], call: ([p, c, n]) => checkTokenizerPattern(p as never, c as never, n as never), accepted: { ...callerAccepted(2), '2:undefined': CALLER, '1:"x"': 'a component name for messages' } },
  { name: 'tokenizers.checkTokenizerRegexes', args: () => [{ pre_tokenizer: { pattern: /\s+/u } }, 'caller'], call: ([t, n]) => checkTokenizerRegexes(t as never, n as never), accepted: { ...callerAccepted(1), '1:undefined': CALLER, '0:{}': 'an object without patterns has nothing to refuse' } },
  { name: 'tokenizers.longestFirst', args: () => [[1, 2, 3], [4, 5], 4, 3], call: ([a, b, n, m]) => longestFirst(a as never, b as never, n as never, m as never), optional: [3] },
  { name: 'tokenizers.lowercaseTokenizerJson', args: () => [json(`${QWEN3}tokenizer.json`)], call: ([j]) => lowercaseTokenizerJson(j as never), accepted: { '0:{}': 'an object without a normalizer gets a Lowercase one: it edits the normalizer only (new Tokenizer checks the rest)' } },
  { name: 'tokenizers.precompiledNormalizer', args: () => [precompiled()], call: ([s]) => precompiledNormalizer(s as never)('Ｈｅｌｌｏ') },
  { name: 'tokenizers.regexHazard', args: () => ['(a+)+$'], call: ([s]) => regexHazard(s as never), accepted: { '0:"x"': 'a pattern source: "x" has no hazard (undefined)' } },
];

/** The tokenizer package's remaining exports (template error, regex checks, truncation, normalizers); Node only. */
export const tokenizersMorePositionsCases: CatalogueCase[] = TOKENIZER_CALLS.flatMap(variants);
