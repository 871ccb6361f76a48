import { describe, expect, it } from 'vitest';
import { characterSpans, patternSpans, splitPiece, SPLIT_BEHAVIORS } from './split-pieces.js';

const texts = (text: string, spans: ReturnType<typeof characterSpans>, behavior: (typeof SPLIT_BEHAVIORS)[number]) => splitPiece({ text, fromStart: 1 }, spans, behavior).map((p) => p.text);

describe('splitPiece', () => {
  // tokenizers 0.23: pre_tokenizers.Split('-', behavior).pre_tokenize_str('the-final--countdown')
  it.each<[(typeof SPLIT_BEHAVIORS)[number], string[]]>([
    ['Removed', ['the', 'final', 'countdown']],
    ['Isolated', ['the', '-', 'final', '-', '-', 'countdown']],
    ['MergedWithPrevious', ['the-', 'final-', '-', 'countdown']],
    ['MergedWithNext', ['the', '-final', '-', '-countdown']],
    ['Contiguous', ['the', '-', 'final', '--', 'countdown']],
  ])('splits on each delimiter with behavior %s', (behavior, expected) => {
    const text = 'the-final--countdown';
    expect(texts(text, characterSpans(text, (c) => c === '-'), behavior)).toEqual(expected);
    expect(texts(text, patternSpans(text, /-/gu), behavior)).toEqual(expected);
  });

  it('inverts a pattern: its matches are the pieces (Split(Regex("\\p{L}+"), invert=True) on "ab, cd!")', () => {
    expect(texts('ab, cd!', patternSpans('ab, cd!', /\p{L}+/gu, true), 'Isolated')).toEqual(['ab', ', ', 'cd', '!']);
    expect(texts('ab, cd!', patternSpans('ab, cd!', /\p{L}+/gu, true), 'Removed')).toEqual(['ab', 'cd']);
  });

  it('keeps the part aligned with the text start in the first piece only', () => {
    const pieces = splitPiece({ text: 'ab cd', fromStart: 1 }, characterSpans('ab cd', (c) => c === ' '), 'Removed');
    expect(pieces).toEqual([{ text: 'ab', fromStart: 1 }, { text: 'cd', fromStart: 0 }]);
  });
});
