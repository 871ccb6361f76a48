import fc from 'fast-check';
import { describe, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { loadTokenizer } from '@attnkit/tokenizers';
import { FUZZ_RUNS } from '../fuzz-budget.js';

/** A working tokenizer (whose ids stay in the vocabulary for any text), or a typed error. */
async function loadsOrRejects(files: Record<string, string>, text: string): Promise<boolean> {
  let tokenizer;
  try {
    tokenizer = await loadTokenizer({ files });
  } catch (error) {
    if (error instanceof AttnkitError) return true;
    throw error;
  }
  const { inputIds } = tokenizer.encode([text], { maxLength: 64 });
  return inputIds[0]!.every((id) => Number.isInteger(id) && id >= 0);
}

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const piece = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom(...SPECIALS, '##s', '##ing', 'the', 'é', '東', '🙂', '__proto__'));

describe(`tokenizer loading fuzzing (fast-check, ${2 * FUZZ_RUNS} cases)`, () => {
  it('random vocab.txt files (with and without the special tokens) and random texts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), fc.boolean(), fc.string({ maxLength: 40 }), (tokens, withSpecials, text) =>
        loadsOrRejects({ 'vocab.txt': [...(withSpecials ? SPECIALS : []), ...tokens].join('\n') }, text),
      ),
      { numRuns: FUZZ_RUNS, seed: 21 },
    );
  });

  it('random tokenizer.json and tokenizer_config.json contents', async () => {
    const json = fc.oneof(fc.string({ maxLength: 30 }), fc.jsonValue().map((v) => JSON.stringify(v)), fc.constant('{"model":{"type":"WordPiece","vocab":{"a":0}}}'));
    await fc.assert(
      fc.asyncProperty(json, fc.option(json, { nil: undefined }), fc.string({ maxLength: 20 }), (tokenizerJson, configJson, text) =>
        loadsOrRejects({ 'tokenizer.json': tokenizerJson, ...(configJson === undefined ? {} : { 'tokenizer_config.json': configJson }) }, text),
      ),
      { numRuns: FUZZ_RUNS, seed: 22 },
    );
  });
});
