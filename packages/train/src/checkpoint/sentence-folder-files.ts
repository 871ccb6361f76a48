import type { Tensor } from '@tensorflow/tfjs-core';
import { modelFiles, type ModelFiles, type ModelSource, writeSafetensors } from '@attnkit/hub';
import { type Module } from '@attnkit/nn';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { SentenceEncoder } from '@attnkit/sentence';
import { CheckpointError } from './checkpoint-error.js';
import { checkFloatModel } from '../trainer/check-float-model.js';
import { sentenceEncoderOf } from '../trainer/sentence-encoder-of.js';
import { encoderConfigJson } from './encoder-config-json.js';

/** Tokenizer files of the families attnkit reads, copied as they are when the source has them. */
export const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'added_tokens.json', 'vocab.txt', 'vocab.json', 'merges.txt', 'sentencepiece.bpe.model', 'spiece.model', 'chat_template.jinja'] as const;

/** The module class paths sentence-transformers 6 writes in `modules.json`. */
const MODULE_TYPES = {
  Transformer: 'sentence_transformers.base.modules.transformer.Transformer',
  Pooling: 'sentence_transformers.sentence_transformer.modules.pooling.Pooling',
  Dense: 'sentence_transformers.base.modules.dense.Dense',
  Normalize: 'sentence_transformers.base.modules.normalize.Normalize',
} as const;

/** `@attnkit/nn` activation names → the PyTorch class sentence-transformers writes in a Dense `config.json`. */
const TORCH_ACTIVATIONS: Readonly<Record<string, string>> = {
  tanh: 'torch.nn.modules.activation.Tanh', linear: 'torch.nn.modules.linear.Identity', relu: 'torch.nn.modules.activation.ReLU', gelu: 'torch.nn.modules.activation.GELU', sigmoid: 'torch.nn.modules.activation.Sigmoid',
  silu: 'torch.nn.modules.activation.SiLU', leaky_relu: 'torch.nn.modules.activation.LeakyReLU', mish: 'torch.nn.modules.activation.Mish', relu6: 'torch.nn.modules.activation.ReLU6',
};

/** The layout sentence-transformers 6.0.1 writes, recorded in `config_sentence_transformers.json`. */
export const SENTENCE_TRANSFORMERS_LAYOUT_VERSION = '6.0.1';

const json = (value: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/** A module's parameters (or the named parameters given) as a float32 safetensors file under their checkpoint keys (read back from the backend). */
export async function moduleSafetensors(module: Module | ReadonlyArray<readonly [string, Tensor]>): Promise<Uint8Array> {
  const tensors: Record<string, { shape: number[]; values: Float32Array }> = {};
  for (const [name, parameter] of Array.isArray(module) ? module : (module as Module).namedParameters()) tensors[name] = { shape: [...parameter.shape], values: (await parameter.data()) as Float32Array };
  return writeSafetensors(tensors, { format: 'pt' });
}

/**
 * The tokenizer files of `source` (those of {@link TOKENIZER_FILES} it has), by name; a source with
 * neither `tokenizer.json` nor `vocab.txt` is a `CheckpointError` (a saved folder must be loadable).
 */
export async function tokenizerFiles(read: ModelFiles, caller: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const name of TOKENIZER_FILES) {
    const bytes = await read.read(name);
    if (bytes !== undefined) files.set(name, bytes);
  }
  if (!files.has('tokenizer.json') && !files.has('vocab.txt')) throw new CheckpointError(caller, read.where, `the source ${read.where} has neither tokenizer.json nor vocab.txt to copy; pass the folder the model was loaded from.`);
  return files;
}

/**
 * Every file of a sentence-transformers folder holding `model`, by path inside the folder — the
 * layout `SentenceTransformer.save` writes (sentence-transformers 6.0.1), which `loadSentenceEncoder`
 * and `SentenceTransformer(folder)` both read:
 *
 * - `config.json` (the encoder's config under Hugging Face key names, `dtype: "float32"`) and
 *   `model.safetensors` (float32, the encoder's `stateDict()` keys, which are the family's
 *   checkpoint keys) at the root, with the tokenizer files copied from `source`;
 * - `modules.json`, `config_sentence_transformers.json` (prompts, similarity function),
 *   `sentence_bert_config.json` (`max_seq_length`, `do_lower_case`), `1_Pooling/config.json`, then
 *   `<i>_Dense/{config.json, model.safetensors}` and `<i>_Normalize/config.json` in the folder's order;
 * - a short `README.md`.
 *
 * A plain Hugging Face folder (no `modules.json`) gets mean pooling, as sentence-transformers gives
 * a plain model it wraps. `source` is the folder `model` was loaded from: the tokenizer files are
 * read from it, since the loaded tokenizer does not keep them.
 *
 * @example
 * const files = await sentenceFolderFiles(model, './attnkit-tiny-bert'); // Map { 'config.json' => bytes, ... }
 */
export async function sentenceFolderFiles(model: SentenceEncoder, source: ModelSource | ModelFiles, caller = 'saveSentenceFolder'): Promise<Map<string, Uint8Array>> {
  if (!(model instanceof SentenceEncoder)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a SentenceEncoder (loadSentenceEncoder)', received: describeValue(model) });
  const encoder = sentenceEncoderOf(model, caller, 'save');
  checkFloatModel([encoder, ...model.dense], caller, 'save');
  const folder = model.folder;
  const read = modelFiles(source, { caller }).subfolder(folder.transformerPath);
  const files = new Map<string, Uint8Array>();
  const originalBytes = await read.read('config.json');
  const original = originalBytes === undefined ? {} : (JSON.parse(new TextDecoder().decode(originalBytes)) as Record<string, unknown>);
  files.set('config.json', json(encoderConfigJson(encoder.config, original)));
  files.set('model.safetensors', await moduleSafetensors(encoder));
  for (const [name, bytes] of await tokenizerFiles(read, caller)) files.set(name, bytes);

  const pooling = model.pooling?.config ?? { embeddingDimension: model.encoder.config.hiddenSize, modes: ['mean'] as const, includePrompt: true };
  const modules: Array<{ idx: number; name: string; path: string; type: string }> = [{ idx: 0, name: '0', path: '', type: MODULE_TYPES.Transformer }];
  const add = (type: keyof typeof MODULE_TYPES): string => {
    const idx = modules.length;
    const path = `${idx}_${type}`;
    modules.push({ idx, name: String(idx), path, type: MODULE_TYPES[type] });
    return path;
  };
  const poolingPath = add('Pooling');
  files.set(`${poolingPath}/config.json`, json({ embedding_dimension: pooling.embeddingDimension, pooling_mode: pooling.modes.length === 1 ? pooling.modes[0] : pooling.modes, include_prompt: pooling.includePrompt }));
  let dense = 0;
  for (const module of folder.modules) {
    const path = add(module.type);
    const io = { module_input_name: 'sentence_embedding', module_output_name: 'sentence_embedding' };
    if (module.type === 'Normalize') {
      files.set(`${path}/config.json`, json(io));
      continue;
    }
    const layer = model.dense[dense++]!;
    const { inFeatures, outFeatures, bias, activation } = layer.config;
    files.set(`${path}/config.json`, json({ in_features: inFeatures, out_features: outFeatures, bias, activation_function: TORCH_ACTIVATIONS[activation] ?? activation, ...io }));
    files.set(`${path}/model.safetensors`, await moduleSafetensors(layer));
  }
  files.set('modules.json', json(modules));
  files.set('sentence_bert_config.json', json({
    max_seq_length: model.maxSeqLength,
    do_lower_case: folder.doLowerCase,
    transformer_task: 'feature-extraction',
    modality_config: { text: { method: 'forward', method_output_name: 'last_hidden_state' } },
    module_output_name: 'token_embeddings',
  }));
  files.set('config_sentence_transformers.json', json({
    __version__: { sentence_transformers: SENTENCE_TRANSFORMERS_LAYOUT_VERSION, attnkit_train: '0.0.0' },
    model_type: 'SentenceTransformer',
    prompts: Object.fromEntries(folder.prompts),
    default_prompt_name: folder.defaultPromptName ?? null,
    similarity_fn_name: folder.similarityFnName,
    ...(folder.truncateDim === undefined ? {} : { truncate_dim: folder.truncateDim }),
  }));
  files.set('README.md', new TextEncoder().encode(readme(model, modules.map((m) => m.type.slice(m.type.lastIndexOf('.') + 1)))));
  return files;
}

function readme(model: SentenceEncoder, modules: readonly string[]): string {
  return `---
library_name: sentence-transformers
tags:
- sentence-transformers
- sentence-similarity
- feature-extraction
- attnkit
pipeline_tag: sentence-similarity
---

# ${model.encoder.config.modelType} sentence encoder saved by attnkit

A sentence-transformers folder written by \`@attnkit/train\`: ${modules.join(' → ')}, ${model.embeddingDimension}-dimensional embeddings,
at most ${model.maxSeqLength} tokens per text.

\`\`\`python
from sentence_transformers import SentenceTransformer
model = SentenceTransformer("path/to/this/folder")
embeddings = model.encode(["A man is eating food."])
\`\`\`

\`\`\`js
import { loadSentenceEncoder } from '@attnkit/sentence';
const model = await loadSentenceEncoder('path/to/this/folder');
const embeddings = await model.encode(['A man is eating food.']);
\`\`\`
`;
}
