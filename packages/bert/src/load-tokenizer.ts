import { BertLoadError } from './bert-load-error.js';
import { BertTokenizer } from './bert-tokenizer.js';
import { modelFiles, type ModelSource } from './model-files.js';
import { tokenizerJsonFromVocab } from './vocab-tokenizer-json.js';

function json(bytes: Uint8Array, file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new BertLoadError(file, `${file} is not a valid JSON object (${(error as Error).message}).`, error);
  }
}

/**
 * Loads the tokenizer of a Hugging Face BERT folder: `tokenizer.json` (with
 * `tokenizer_config.json` if present), or — for folders that only have `vocab.txt` — an
 * equivalent tokenizer built from the vocabulary and `tokenizer_config.json`'s `do_lower_case`.
 *
 * @example
 * const tokenizer = await loadTokenizer('./models/attnkit-tiny-bert');
 */
export async function loadTokenizer(source: ModelSource): Promise<BertTokenizer> {
  const read = modelFiles(source);
  const configBytes = await read('tokenizer_config.json');
  const config = configBytes === undefined ? {} : json(configBytes, 'tokenizer_config.json');
  const tokenizerBytes = await read('tokenizer.json');
  try {
    if (tokenizerBytes !== undefined) return new BertTokenizer(json(tokenizerBytes, 'tokenizer.json'), config);
    const vocab = await read('vocab.txt');
    if (vocab === undefined) throw new BertLoadError('tokenizer.json', `neither tokenizer.json nor vocab.txt is in ${typeof source === 'object' && !(source instanceof URL) ? 'the given files' : String(source)}.`);
    const lowercase = typeof config['do_lower_case'] === 'boolean' ? config['do_lower_case'] : true;
    const stripAccents = typeof config['strip_accents'] === 'boolean' ? config['strip_accents'] : null;
    return new BertTokenizer(tokenizerJsonFromVocab(new TextDecoder().decode(vocab), { lowercase, stripAccents }), config);
  } catch (error) {
    if (error instanceof BertLoadError) throw error;
    throw new BertLoadError('tokenizer.json', `the tokenizer cannot be built: ${(error as Error).message}`, error);
  }
}
