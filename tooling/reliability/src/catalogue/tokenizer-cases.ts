import { loadTokenizer, tokenizerJsonFromVocab, type Tokenizer } from '@attnkit/tokenizers';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
let cached: Tokenizer | undefined;
const tokenizer = async () => (cached ??= await loadTokenizer(repoPath('packages/models/assets/attnkit-tiny-bert/')));

/** The tokenizer and its files. */
export const tokenizerCases: CatalogueCase[] = [
  rejects('tokenizer', 'empty list of texts', E, "Tokenizer.encode: 'texts' must be a non-empty list of strings or [string, string] pairs; received array [].", async () => (await tokenizer()).encode([])),
  rejects('tokenizer', 'a number instead of a text', E, "Tokenizer.encode: 'texts[0]' must be a string or a [string, string] pair; received number 42.", async () => (await tokenizer()).encode([42 as never])),
  rejects('tokenizer', 'maxLength 2', E, "Tokenizer.encode: 'maxLength' must be an integer ≥ 3; received number 2.", async () => (await tokenizer()).encode(['a'], { maxLength: 2 })),
  safely('tokenizer', 'too long with truncation off', 'every id returned (the model then says whether it can take them)', async () => (await tokenizer()).encode(['one two three four'], { maxLength: 4, truncation: false }).inputIds[0]!.length, (n) => n === 6),
  rejects('tokenizer', 'vocab.txt without special tokens', E, /^tokenizerJsonFromVocab: 'vocab\.txt' must be the BERT special tokens/, () => tokenizerJsonFromVocab('a\nb\n')),
  rejects('tokenizer', 'malformed tokenizer.json', 'ModelLoadError', /^loadTokenizer: tokenizer\.json is not a valid JSON object \(/, () => loadTokenizer({ files: { 'tokenizer.json': '{"model": ' } })),
  rejects('tokenizer', 'folder without tokenizer.json or vocab.txt', 'ModelLoadError', 'loadTokenizer: neither tokenizer.json nor vocab.txt is in the given files.', () => loadTokenizer({ files: { 'config.json': '{}' } })),
];
