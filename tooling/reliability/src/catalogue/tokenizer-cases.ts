import { loadTokenizer, tokenizerJsonFromVocab, type BertTokenizer } from '@attnkit/bert';
import { rejects, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
let cached: BertTokenizer | undefined;
const tokenizer = async () => (cached ??= await loadTokenizer(repoPath('packages/bert/assets/attnkit-tiny-bert/')));

/** The tokenizer and its files. */
export const tokenizerCases: CatalogueCase[] = [
  rejects('tokenizer', 'empty list of texts', E, "BertTokenizer.encode: 'texts' must be a non-empty list of strings or [string, string] pairs; received [].", async () => (await tokenizer()).encode([])),
  rejects('tokenizer', 'a number instead of a text', E, "BertTokenizer.encode: 'texts[0]' must be a string or a [string, string] pair; received 42.", async () => (await tokenizer()).encode([42 as never])),
  rejects('tokenizer', 'maxLength 2', E, "BertTokenizer.encode: 'maxLength' must be an integer ≥ 3; received number 2.", async () => (await tokenizer()).encode(['a'], { maxLength: 2 })),
  rejects('tokenizer', 'too long with truncation off', E, /^BertTokenizer\.encode: 'texts' must be sequences of at most maxLength = 4 tokens/, async () => (await tokenizer()).encode(['one two three four'], { maxLength: 4, truncation: false })),
  rejects('tokenizer', 'vocab.txt without special tokens', E, /^tokenizerJsonFromVocab: 'vocab\.txt' must be the BERT special tokens/, () => tokenizerJsonFromVocab('a\nb\n')),
  rejects('tokenizer', 'malformed tokenizer.json', 'BertLoadError', /^loadBert: tokenizer\.json is not a valid JSON object \(/, () => loadTokenizer({ files: { 'tokenizer.json': '{"model": ' } })),
  rejects('tokenizer', 'folder without tokenizer.json or vocab.txt', 'BertLoadError', 'loadBert: neither tokenizer.json nor vocab.txt is in the given files.', () => loadTokenizer({ files: { 'config.json': '{}' } })),
];
