import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, it } from 'vitest';
import { loadTokenizer, type EncodedBatch, type EncodeOptions, type Tokenizer } from '@attnkit/tokenizers';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { repoPath } from '../catalogue/fixtures-path.js';
import { isTypedError } from './typed-error.js';

/** One tokenizer of each model family in the committed fixtures: WordPiece (tokenizer.json and vocab.txt), byte-level BPE, Unigram. */
const FOLDERS = ['bert', 'bert-cased-vocab-only', 'roberta', 'xlm-roberta'] as const;
const tokenizers = new Map<string, { tokenizer: Tokenizer; vocabSize: number; typeVocabSize: number }>();
beforeAll(async () => {
  for (const name of FOLDERS) {
    const folder = repoPath(`tooling/reference/fixtures/families/${name}/`);
    const config = JSON.parse(readFileSync(`${folder}config.json`, 'utf8')) as { vocab_size: number; type_vocab_size: number };
    tokenizers.set(name, { tokenizer: await loadTokenizer(folder), vocabSize: config.vocab_size, typeVocabSize: config.type_vocab_size });
  }
});

/** Any text: code points of every plane and lone surrogates, graphemes, and long runs of one piece (up to 3 000 characters). */
const text = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 6 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.constantFrom('\uD800', '\uDFFF', 'a\uD83D', '\uDE00b', '\u0000', '\u200B\u200D', '\uFEFF', 'e\u0301', '[CLS]', '<s>', '</s>', '[UNK]', '<unk>', '<mask>', '▁'), weight: 1 },
  { arbitrary: fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }), fc.integer({ min: 100, max: 1000 })).map(([piece, n]) => piece.repeat(n)), weight: 1 },
);
const entry = fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: fc.tuple(text, text), weight: 1 });
const options: fc.Arbitrary<EncodeOptions> = fc.record(
  {
    maxLength: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 80 }), weight: 8 }, { arbitrary: fc.constantFrom<unknown>(0, -1, 2.5, Number.NaN, Infinity, '16', 2 ** 20 + 1, 1e9, 2 ** 33), weight: 1 }) as fc.Arbitrary<number>,
    truncation: fc.boolean(),
    padding: fc.constantFrom<'longest' | 'max_length' | false>('longest', 'max_length', false),
  },
  { requiredKeys: [] },
);

/** A batch whose ids are vocabulary ids, rows of one width, mask and type ids that fit them. */
function wellFormed(batch: EncodedBatch, count: number, vocabSize: number, typeVocabSize: number, o: EncodeOptions): boolean {
  const width = batch.inputIds[0]?.length ?? 0;
  const rows = [batch.inputIds, batch.attentionMask, batch.tokenTypeIds];
  if (rows.some((r) => r.length !== count || r.some((row) => !Array.isArray(row) || row.length !== width)) || batch.tokens.length !== count) return false;
  for (let b = 0; b < count; b++) {
    const real = batch.tokens[b]!.length;
    if (!batch.inputIds[b]!.every((id) => Number.isInteger(id) && id >= 0 && id < vocabSize)) return false;
    if (!batch.tokenTypeIds[b]!.every((t) => Number.isInteger(t) && t >= 0 && t < typeVocabSize)) return false;
    if (!batch.attentionMask[b]!.every((m, i) => m === (i < real ? 1 : 0))) return false;
    if (o.truncation !== false && typeof o.maxLength === 'number' && real > o.maxLength) return false;
  }
  return true;
}

describe(`Tokenizer.encode fuzzing (fast-check, ${FUZZ_RUNS} cases)`, () => {
  it('any unicode text and pairs (lone surrogates, long runs) on WordPiece, BPE and Unigram fixtures: vocabulary ids, or a typed error', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FOLDERS), fc.array(entry, { minLength: 1, maxLength: 3 }), options, (name, texts, o) => {
        const { tokenizer, vocabSize, typeVocabSize } = tokenizers.get(name)!;
        let batch: EncodedBatch;
        try {
          batch = tokenizer.encode(texts, o);
        } catch (error) {
          return isTypedError(error);
        }
        return wellFormed(batch, texts.length, vocabSize, typeVocabSize, o);
      }),
      { numRuns: FUZZ_RUNS, seed: 81 },
    );
  }, FUZZ_TIMEOUT_MS);
});
