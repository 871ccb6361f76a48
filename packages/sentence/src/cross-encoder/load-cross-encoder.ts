import { callBackend, ensureBackend } from '@attnkit/backends';
import { checkObject, checkOptionKeys } from '@attnkit/errors';
import { modelFiles, type ModelFiles, type ModelSource } from '@attnkit/hub';
import { loadSequenceClassifier, type LoadSequenceClassifierOptions } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { CrossEncoder } from './cross-encoder.js';
import { readCrossEncoderFolder } from './read-cross-encoder-folder.js';

/** Options of {@link loadCrossEncoder}: those of `loadSequenceClassifier` (`@attnkit/models`), applied to the whole folder. */
export type LoadCrossEncoderOptions = LoadSequenceClassifierOptions;

const OPTION_KEYS = ['onProgress', 'onNotice', 'signal', 'backend', 'checkFinite', 'fetch', 'hub', 'quantize', 'newHead', 'seed'] as const;
const CALLER = 'loadCrossEncoder';

/**
 * Loads a cross-encoder as sentence-transformers 6.0.1's `CrossEncoder(path)` does: a folder
 * `CrossEncoder.save` wrote (`modules.json`, `config_sentence_transformers.json` with the
 * activation and prompts, `sentence_bert_config.json`, the tokenizer with its `model_max_length`),
 * one sentence-transformers 4 or 5 wrote (the activation in `config.json`'s `sentence_transformers`),
 * or a plain Hugging Face sequence-classification folder (sigmoid for one label, identity for
 * several), of any encoder family. Sources and options as `loadSequenceClassifier`'s: a folder, a
 * URL, a Hugging Face id (`hub`), `{ files }` or a `ModelFiles`; `quantize: 'int8'` for an int8
 * encoder.
 *
 * @example
 * const model = await loadCrossEncoder('cross-encoder/ms-marco-MiniLM-L6-v2');
 * const ranked = await model.rank('How many people live in Berlin?', ['Berlin has 3.5 million people.', 'Paris is in France.']);
 */
export async function loadCrossEncoder(source: ModelSource | ModelFiles, options: LoadCrossEncoderOptions = {}): Promise<CrossEncoder> {
  checkObject(options, { caller: CALLER, argument: 'options', expected: 'an object of load options' });
  checkOptionKeys(options, OPTION_KEYS, CALLER);
  const files = modelFiles(source, { caller: CALLER, onProgress: options.onProgress, signal: options.signal, fetch: options.fetch, hub: options.hub });
  if (options.backend === undefined) await ensureBackend(CALLER); // Node, nothing chosen: wasm, not tfjs' slow pure-JS cpu
  const backend = callBackend(CALLER, options.backend);
  const folder = await readCrossEncoderFolder(files);
  if (folder.ignoredActivation !== undefined) options.onNotice?.(`${CALLER}: ${files.where} names the activation ${JSON.stringify(folder.ignoredActivation)}, which is not PyTorch's; sentence-transformers uses its default without trust_remote_code, and so does attnkit.`);
  const transformer = files.subfolder(folder.transformerPath);
  const { onProgress: _progress, signal: _signal, fetch: _fetch, hub: _hub, ...load } = options;
  const model = await loadSequenceClassifier(transformer, { ...load, backend: backend.name });
  try {
    const tokenizer = await loadTokenizer(transformer, { lowercase: folder.doLowerCase });
    options.signal?.throwIfAborted();
    return new CrossEncoder(model, tokenizer, folder);
  } catch (error) {
    model.dispose();
    throw error;
  }
}
