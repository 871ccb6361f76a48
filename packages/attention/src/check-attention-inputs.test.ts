import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { scaledDotProductScorer } from '@attnkit/scorers';
import { checkAttentionInputs } from './check-attention-inputs.js';

describe('checkAttentionInputs', () => {
  beforeAll(() => useBackend('cpu'));
  const q = () => zeros([2, 3, 5, 4]);
  const k = () => zeros([2, 3, 7, 4]);
  const v = () => zeros([2, 3, 7, 6]);

  it('reads B, H, T, S, the dropout rate, training and the scorer (defaults: 0, false, scaled dot product)', () => {
    expect(checkAttentionInputs(q(), k(), v(), {}, 'test')).toEqual({ batch: 2, heads: 3, queryLength: 5, keyLength: 7, rate: 0, training: false, scorer: scaledDotProductScorer });
    expect(checkAttentionInputs(q(), k(), v(), { dropout: 0.1, training: true, seed: 3 }, 'test')).toMatchObject({ rate: 0.1, training: true });
  });

  it.each([
    ['an unknown option', () => checkAttentionInputs(q(), k(), v(), { attentionMask: zeros([2, 1, 1, 7]) } as never, 'test'), /unknown key 'attentionMask'/],
    ['a rank-3 query', () => checkAttentionInputs(zeros([2, 5, 4]), k(), v(), {}, 'test'), /'query'/],
    ['an int32 key', () => checkAttentionInputs(q(), zeros([2, 3, 7, 4], 'int32'), v(), {}, 'test'), /'key'/],
    ['a value of another key length', () => checkAttentionInputs(q(), k(), zeros([2, 3, 6, 6]), {}, 'test'), /test: 'value' must be \[B, H, S, Dv\] with B, H, S = 2, 3, 7 \(from 'query' and 'key'\); received \[2, 3, 6, 6\]/],
    ['a dropout of 1', () => checkAttentionInputs(q(), k(), v(), { dropout: 1 }, 'test'), /'dropout' must be a rate in \[0, 1\); received 1/],
    ['a NaN dropout', () => checkAttentionInputs(q(), k(), v(), { dropout: Number.NaN }, 'test'), /'dropout' must be a rate in \[0, 1\)/],
    ['a string training flag', () => checkAttentionInputs(q(), k(), v(), { training: 'yes' as never }, 'test'), /'training'/],
    ['a fractional seed', () => checkAttentionInputs(q(), k(), v(), { seed: 1.5 }, 'test'), /'seed'/],
    ['a scorer without score()', () => checkAttentionInputs(q(), k(), v(), { scorer: {} as never }, 'test'), /'scorer' must be a Scorer/],
  ] as const)('refuses %s with InvalidArgumentError', (_, call, message) => {
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(message);
  });
});
