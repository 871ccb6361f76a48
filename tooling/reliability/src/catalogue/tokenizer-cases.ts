import { loadTokenizer, tokenizerJsonFromVocab, type Tokenizer } from '@attnkit/tokenizers';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
let cached: Tokenizer | undefined;
const tokenizer = async () => (cached ??= await loadTokenizer(repoPath('packages/models/assets/attnkit-tiny-bert/')));
const flags = { single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
/** A small tokenizer.json (WordLevel over words split on whitespace) with `parts` in it, as files for loadTokenizer. */
const withParts = (parts: Record<string, unknown>) => ({
  files: { 'tokenizer.json': JSON.stringify({ added_tokens: [{ id: 0, content: '<unk>', ...flags }], normalizer: null, pre_tokenizer: { type: 'WhitespaceSplit' }, post_processor: null, decoder: null, model: { type: 'WordLevel', vocab: { '<unk>': 0, hello: 1, world: 2 }, unk_token: '<unk>' }, ...parts }) },
});

/** The tokenizer and its files. */
export const tokenizerCases: CatalogueCase[] = [
  rejects('tokenizer', 'empty list of texts', E, "Tokenizer.encode: 'texts' must be a non-empty list of strings or [string, string] pairs; received array [].", async () => (await tokenizer()).encode([])),
  rejects('tokenizer', 'a number instead of a text', E, "Tokenizer.encode: 'texts[0]' must be a string or a [string, string] pair; received number 42.", async () => (await tokenizer()).encode([42 as never])),
  rejects('tokenizer', 'maxLength 2', E, "Tokenizer.encode: 'maxLength' must be an integer ≥ 3; received number 2.", async () => (await tokenizer()).encode(['a'], { maxLength: 2 })),
  safely('tokenizer', 'too long with truncation off', 'every id returned (the model then says whether it can take them)', async () => (await tokenizer()).encode(['one two three four'], { maxLength: 4, truncation: false }).inputIds[0]!.length, (n) => n === 6),
  rejects('tokenizer', 'vocab.txt without special tokens', E, /^tokenizerJsonFromVocab: 'vocab\.txt' must be the BERT special tokens/, () => tokenizerJsonFromVocab('a\nb\n')),
  rejects('tokenizer', 'malformed tokenizer.json', 'ModelLoadError', /^loadTokenizer: tokenizer\.json is not a valid JSON object \(/, () => loadTokenizer({ files: { 'tokenizer.json': '{"model": ' } })),
  rejects('tokenizer', 'folder without tokenizer.json or vocab.txt', 'ModelLoadError', 'loadTokenizer: neither tokenizer.json nor vocab.txt is in the given files.', () => loadTokenizer({ files: { 'config.json': '{}' } })),
  rejects('tokenizer', 'tokenizer.json with a normalizer type the tokenizers library does not have', 'ModelLoadError', /^loadTokenizer: the tokenizer cannot be built: Tokenizer: 'tokenizer\.json normalizer\.normalizers\[1\]\.type' must be one of "BertNormalizer", .*; received "Unheard"\.$/, () => loadTokenizer(withParts({ normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Unheard' }] } }))),
  rejects('tokenizer', 'tokenizer.json BPE model with dropout 0.1 (random ids)', 'ModelLoadError', /^loadTokenizer: the tokenizer cannot be built: Tokenizer: 'tokenizer\.json model\.dropout \(BPE\)' must be null or 0 /, () => loadTokenizer(withParts({ model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2 }, merges: ['a b'], dropout: 0.1 } }))),
  safely('tokenizer', 'tokenizer.json with the Sequence[Nmt, NFKC, Replace] normalizer SentencePiece-style training writes', 'loads: the normalizer runs as the tokenizers library runs it', () => loadTokenizer(withParts({ normalizer: { type: 'Sequence', normalizers: [{ type: 'Nmt' }, { type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] } })).then((t) => t.encode(['ＨＥＬＬＯ\u200b   world']).inputIds[0]), (ids) => JSON.stringify(ids) === '[0,2]'),
];
