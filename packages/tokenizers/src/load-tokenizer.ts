import { checkBoolean, checkOptionKeys } from '@attnkit/errors';
import { ModelFiles, ModelLoadError, modelFiles, type HubOptions, type LoadProgress, type ModelSource } from '@attnkit/hub';
import { Tokenizer } from './tokenizer.js';
import { lowercaseTokenizerJson } from './tokenizer-json/lowercase-tokenizer-json.js';
import { tokenizerJsonFromVocab } from './tokenizer-json/vocab-tokenizer-json.js';

/** Options of {@link loadTokenizer}. */
export interface LoadTokenizerOptions {
  /** Lowercase every text first (sentence-transformers' `do_lower_case`), unless the tokenizer already does. */
  readonly lowercase?: boolean;
  /** Stops the load: it rejects with the signal's reason (an `AbortError`). */
  readonly signal?: AbortSignal;
  /** Fetches URL sources instead of the global `fetch` (same signature), e.g. `cachedFetch()`. */
  readonly fetch?: typeof fetch;
  /** Told how far each file has been read. */
  readonly onProgress?: (progress: LoadProgress) => void;
  /** For a tokenizer named by Hugging Face id (`'org/name'`): the cache folder, offline mode, token and endpoint. */
  readonly hub?: HubOptions;
}

function json(bytes: Uint8Array, file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new ModelLoadError(file, `${file} is not a valid JSON object (${(error as Error).message}).`, error, 'loadTokenizer');
  }
}

/**
 * Loads the tokenizer of a Hugging Face model folder: `tokenizer.json` (with
 * `tokenizer_config.json` and `chat_template.jinja` if present) of any family, or — for BERT folders that only have
 * `vocab.txt` — an equivalent WordPiece tokenizer built from the vocabulary and
 * `tokenizer_config.json`'s `do_lower_case` and `strip_accents`.
 *
 * @example
 * const tokenizer = await loadTokenizer('./models/attnkit-tiny-bert');
 */
export async function loadTokenizer(source: ModelSource | ModelFiles, options: LoadTokenizerOptions = {}): Promise<Tokenizer> {
  checkOptionKeys(options, ['lowercase', 'signal', 'fetch', 'onProgress', 'hub'], 'loadTokenizer'); // null, a non-object or a misspelled option is an error
  checkBoolean(options.lowercase, { caller: 'loadTokenizer', argument: 'lowercase', fallback: false });
  const lower = (tokenizerJson: Record<string, unknown>) => (options.lowercase === true ? lowercaseTokenizerJson(tokenizerJson) : tokenizerJson);
  const files = modelFiles(source, { caller: 'loadTokenizer', signal: options.signal, fetch: options.fetch, onProgress: options.onProgress, hub: options.hub });
  const configBytes = await files.read('tokenizer_config.json');
  const config = configBytes === undefined ? {} : json(configBytes, 'tokenizer_config.json');
  const tokenizerBytes = await files.read('tokenizer.json');
  const templateBytes = await files.read('chat_template.jinja');
  const chat = templateBytes === undefined ? {} : { chatTemplate: new TextDecoder().decode(templateBytes) };
  try {
    if (tokenizerBytes !== undefined) return new Tokenizer(lower(json(tokenizerBytes, 'tokenizer.json')), config, chat);
    const vocab = await files.read('vocab.txt');
    if (vocab === undefined) throw new ModelLoadError('tokenizer.json', `neither tokenizer.json nor vocab.txt is in ${files.where}.`, undefined, 'loadTokenizer');
    const lowercase = typeof config['do_lower_case'] === 'boolean' ? config['do_lower_case'] : true;
    const stripAccents = typeof config['strip_accents'] === 'boolean' ? config['strip_accents'] : null;
    return new Tokenizer(lower(tokenizerJsonFromVocab(new TextDecoder().decode(vocab), { lowercase, stripAccents })), config, chat);
  } catch (error) {
    if (error instanceof ModelLoadError) throw error;
    throw new ModelLoadError('tokenizer.json', `the tokenizer cannot be built: ${(error as Error).message}`, error, 'loadTokenizer');
  }
}
