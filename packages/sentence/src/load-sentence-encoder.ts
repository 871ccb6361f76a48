import { callBackend, ensureBackend } from '@attnkit/backends';
import { checkAbortSignal, checkBoolean, checkFunction, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError, modelFiles, type ModelFiles, type ModelSource } from '@attnkit/hub';
import { DECODER_MODEL_TYPES, loadDecoder, loadEncoder, MODEL_TYPES, type LoadEncoderOptions } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import type { Dense } from './modules/dense.js';
import { loadDense } from './modules/load-dense.js';
import { readSentenceFolder } from './read-sentence-folder.js';
import { SentenceEncoder } from './sentence-encoder.js';

/**
 * Options of {@link loadSentenceEncoder}: those of `loadEncoder` (`@attnkit/models`), applied to the
 * whole folder — `onProgress` hears of every file (JSON files, tokenizer, weights), `checkFinite`
 * covers the Dense modules too, and `quantize: 'int8'` quantizes the encoder only: the Dense modules
 * stay float32 (they run once per sentence, not per token, so there is no time to save, and their
 * error would go straight into the embedding).
 */
export type LoadSentenceEncoderOptions = LoadEncoderOptions;

const OPTION_KEYS = ['onProgress', 'onNotice', 'signal', 'backend', 'checkFinite', 'fetch', 'hub', 'quantize'] as const;
const CALLER = 'loadSentenceEncoder';

/**
 * Loads a sentence-transformers folder (or a plain Hugging Face folder, with mean pooling) from a
 * local folder (Node), a URL or a set of files: the encoder of its `model_type` — or, for a decoder
 * `model_type` (`gpt2`, `llama`, `mistral`, `qwen2`, `qwen3`: Qwen3-Embedding, gte-Qwen2,
 * e5-mistral), the headless decoder (`loadDecoder`) —, its tokenizer (with its `padding_side`),
 * and its modules as `modules.json` lists them. Any file the folder refers to stays inside it.
 * `options.fetch` fetches URL sources instead of the global `fetch`: `cachedFetch()` of
 * `@attnkit/hub` downloads a model once per browser. `options.quantize: 'int8'` loads an int8
 * inference encoder (Dense modules stay float32; see {@link LoadSentenceEncoderOptions.quantize}).
 *
 * @example
 * const model = await loadSentenceEncoder('./bge-small-en-v1.5');
 * const embeddings = await model.encode(['query text'], { normalize: true }); // [1, 384]
 * const int8 = await loadSentenceEncoder('./bge-small-en-v1.5', { quantize: 'int8' }); // int8 matrix products, inference only
 * const qwen = await loadSentenceEncoder('./Qwen3-Embedding-0.6B'); // a decoder: last-token pooling of left-padded rows
 * const queries = await qwen.encode(['What is the capital of China?'], { promptName: 'query' }); // [1, 1024]
 */
export async function loadSentenceEncoder(source: ModelSource | ModelFiles, options: LoadSentenceEncoderOptions = {}): Promise<SentenceEncoder> {
  checkObject(options, { caller: CALLER, argument: 'options', expected: 'an object of load options' });
  checkOptionKeys(options, OPTION_KEYS, CALLER);
  checkFunction(options.onNotice, { caller: CALLER, argument: 'onNotice' });
  checkBoolean(options.checkFinite, { caller: CALLER, argument: 'checkFinite', fallback: false });
  if (options.quantize !== undefined && options.quantize !== 'int8') throw new InvalidArgumentError({ caller: CALLER, argument: 'quantize', expected: "'int8' (or absent for float32 weights)", received: describeValue(options.quantize) }); // before any file is read
  checkAbortSignal(options.signal, { caller: CALLER });
  // one reader for the whole folder: the sentence modules, the encoder, its tokenizer and the Dense weights read each file once
  const files = modelFiles(source, { caller: CALLER, onProgress: options.onProgress, signal: options.signal, fetch: options.fetch, hub: options.hub });
  if (options.backend === undefined) await ensureBackend(CALLER); // Node, nothing chosen: wasm, not tfjs' slow pure-JS cpu
  const backend = callBackend(CALLER, options.backend); // the weights are made here, whatever happens meanwhile
  const folder = await readSentenceFolder(files);
  const transformer = files.subfolder(folder.transformerPath);
  if (folder.plain) options.onNotice?.(`${CALLER}: ${files.where} has no modules.json (not a sentence-transformers folder); embedding with mean pooling, as sentence-transformers does for such a folder.`);
  const modelOptions = { backend: backend.name, ...(options.checkFinite === undefined ? {} : { checkFinite: options.checkFinite }), ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }), ...(options.quantize === undefined ? {} : { quantize: options.quantize }) };
  const modelType = ((await transformer.json('config.json')) as { model_type?: unknown } | undefined)?.model_type; // absent or bad: loadEncoder says what is wrong
  const decoder = (DECODER_MODEL_TYPES as readonly unknown[]).includes(modelType); // Qwen3-Embedding, gte-Qwen2, e5-mistral: the headless decoder's last_hidden_state
  if (typeof modelType === 'string' && !decoder && !(MODEL_TYPES as readonly string[]).includes(modelType)) {
    const where = transformer.where;
    throw new ModelLoadError('config.json', `config.json in ${where} has model_type ${JSON.stringify(modelType)}; a Transformer module attnkit loads is an encoder (${MODEL_TYPES.join(', ')}) or a decoder (${DECODER_MODEL_TYPES.join(', ')}). docs/models.md lists what loads.`, undefined, CALLER);
  }
  const encoder = decoder ? await loadDecoder(transformer, modelOptions) : await loadEncoder(transformer, modelOptions);
  const dense: Dense[] = [];
  try {
    const tokenizer = await loadTokenizer(transformer, { lowercase: folder.doLowerCase });
    for (const module of folder.modules) {
      if (module.type === 'Dense') dense.push(await loadDense(files, module.path, module.config, { backend, checkFinite: options.checkFinite }));
    }
    options.signal?.throwIfAborted();
    return new SentenceEncoder(encoder, tokenizer, folder, dense);
  } catch (error) {
    encoder.dispose();
    dense.forEach((d) => d.dispose());
    throw error;
  }
}
