import { tensor2d, tensor3d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Pooling, parsePoolingConfig } from './pooling.js';
import { poolModes, type PoolingMode } from './pooling-modes.js';

// tokens [B 2, T 3, E 2]; row 0 has 2 tokens then padding, row 1 is left-padded (1 padding, 2 tokens)
const tokens = () => tensor3d([[[1, 2], [3, 4], [100, 100]], [[100, 100], [5, 6], [7, -8]]]);
const mask = () => tensor2d([[1, 1, 0], [0, 1, 1]], undefined, 'int32');
const pool = (modes: PoolingMode[], includePrompt = true, promptLength = 0) => new Pooling({ embeddingDimension: 2, modes, includePrompt }).forward(tokens(), mask(), promptLength).arraySync();

beforeAll(() => useBackend('cpu'));

describe('Pooling: the modes as sentence-transformers computes them (padding never counts)', () => {
  it.each<[PoolingMode, number[][]]>([
    ['cls', [[1, 2], [5, 6]]], // the first counted token (left padding skipped)
    ['max', [[3, 4], [7, 6]]],
    ['mean', [[2, 3], [6, -1]]],
    ['mean_sqrt_len_tokens', [[4 / Math.SQRT2, 6 / Math.SQRT2], [12 / Math.SQRT2, -2 / Math.SQRT2]]],
    ['weightedmean', [[(1 + 6) / 3, (2 + 8) / 3], [(10 + 21) / 5, (12 - 24) / 5]]], // weights are positions 1..T
    ['lasttoken', [[3, 4], [7, -8]]],
  ])('%s', (mode, expected) => {
    const out = pool([mode]) as number[][];
    out.forEach((row, b) => row.forEach((v, e) => expect(v).toBeCloseTo(expected[b]![e]!, 5)));
  });

  it('concatenates several modes in order', () => {
    expect(pool(['cls', 'mean'])).toEqual([[1, 2, 2, 3], [5, 6, 6, -1]]);
  });

  it('leaves the prompt out (after left padding) when includePrompt is false, and keeps it otherwise', () => {
    expect(pool(['mean'], false, 1)).toEqual([[3, 4], [7, -8]]);
    expect(pool(['mean'], true, 1)).toEqual([[2, 3], [6, -1]]);
    expect((pool(['lasttoken'], false, 5) as number[][]).map((r) => r.map((v) => v + 0))).toEqual([[0, 0], [0, 0]]); // nothing left to count: zeros (+0 for -0), as sentence-transformers
  });

  it('leaks no tensor', async () => {
    const [t, m] = [tokens(), mask()];
    const pooling = new Pooling({ embeddingDimension: 2, modes: ['cls', 'max', 'mean', 'mean_sqrt_len_tokens', 'weightedmean', 'lasttoken'], includePrompt: false });
    expect(await leaksOf(() => pooling.forward(t, m, 1).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('rejects tokens of another width or a mask of another shape', () => {
    const pooling = new Pooling({ embeddingDimension: 3, modes: ['mean'], includePrompt: true });
    expect(thrown(() => pooling.forward(tokens(), mask())).message).toBe("Pooling.forward: 'tokens' must be [B, T, E] with E = embedding_dimension 3; received [2, 3, 2].");
    expect(thrown(() => new Pooling({ embeddingDimension: 2, modes: ['mean'], includePrompt: true }).forward(tokens(), tensor2d([[1, 1]], undefined, 'int32'))).message).toBe("Pooling.forward: 'attentionMask' must be [B, T] = [2, 3]; received [1, 2].");
  });
});

describe('parsePoolingConfig', () => {
  it('reads the current format, a list of modes, and the older boolean keys', () => {
    expect(parsePoolingConfig({ embedding_dimension: 384, pooling_mode: 'cls', include_prompt: false })).toEqual({ embeddingDimension: 384, modes: ['cls'], includePrompt: false });
    expect(parsePoolingConfig({ embedding_dimension: 8, pooling_mode: ['mean', 'max'] }).modes).toEqual(['mean', 'max']);
    expect(parsePoolingConfig({ word_embedding_dimension: 768, pooling_mode_cls_token: false, pooling_mode_mean_tokens: true, pooling_mode_max_tokens: true })).toEqual({ embeddingDimension: 768, modes: ['max', 'mean'], includePrompt: true });
    expect(parsePoolingConfig({ word_embedding_dimension: 16, pooling_mode_mean_tokens: false }).modes).toEqual(['mean']); // none set: mean, as sentence-transformers
  });

  it.each<[unknown, string]>([
    [[], "parsePoolingConfig: 'config' must be a JSON object (the Pooling config.json); received []."],
    [{ pooling_mode: 'mean' }, "parsePoolingConfig: 'embedding_dimension' must be a positive integer; received undefined."],
    [{ embedding_dimension: 4, pooling_mode: 'median' }, 'parsePoolingConfig: \'pooling_mode\' must be one of "cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken", or a list of them; received "median".'],
    [{ embedding_dimension: 4, pooling_mode: [] }, 'parsePoolingConfig: \'pooling_mode\' must be one of "cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken", or a list of them; received [].'],
    [{ embedding_dimension: 4, include_prompt: 'no' }, 'parsePoolingConfig: \'include_prompt\' must be true or false; received "no".'],
  ])('rejects %j', (json, message) => {
    const error = thrown(() => parsePoolingConfig(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('Pooling.forward promptLength and poolModes inputs', () => {
  it.each([[null], [Number.NaN], [-1], [1.5], ['2']])('refuses promptLength %s by name, leaking nothing', async (promptLength) => {
    const pooling = new Pooling({ embeddingDimension: 2, modes: ['mean'], includePrompt: false });
    const [t, m] = [tokens(), mask()];
    expect(await leaksOf(() => { expect(() => pooling.forward(t, m, promptLength as never)).toThrow(/^Pooling\.forward: 'promptLength' must be an integer ≥ 0; received /); })).toEqual({ tensors: 0, bytes: 0 });
    [t, m].forEach((x) => x.dispose());
  });

  it('poolModes refuses tokens or a mask that is no tensor, or a mask of another [B, T], by name', () => {
    const [t, m] = [tokens(), mask()];
    expect(() => poolModes(['mean'], null as never, m)).toThrow("poolModes: 'tokens' must be a float32 tensor of rank 3 [B, T, E]; received null.");
    expect(() => poolModes(['mean'], t, 'x' as never)).toThrow("poolModes: 'mask' must be a float32 or int32 tensor of rank 2 [B, T] (1 = counted); received string 'x'.");
    const short = tensor2d([[1, 1]], undefined, 'int32');
    expect(() => poolModes(['mean'], t, short)).toThrow("poolModes: 'mask' must be [B, T] = [2, 3]; received [1, 2].");
    [t, m, short].forEach((x) => x.dispose());
  });
});

describe('parsePoolingConfig caller', () => {
  it('names itself when the caller is no string', () => {
    expect(() => parsePoolingConfig({ word_embedding_dimension: 'x' }, Number.NaN as never)).toThrow(/^parsePoolingConfig: 'embedding_dimension' must be a positive integer/);
  });
});
