import { concat, randomNormal, tidy } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { quantizeWeightPerChannel } from '@attnkit/kernels';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Int8Linear } from './int8-linear.js';
import { int8QkvFusable, int8QkvProjection } from './int8-qkv-projection.js';
import { Linear } from './linear.js';

beforeAll(() => useBackend('cpu'));

const triple = (inFeatures: number, outFeatures: number, options: ConstructorParameters<typeof Int8Linear>[2] = {}) =>
  [1, 2, 3].map((seed) => Int8Linear.fromLinear(new Linear(inFeatures, outFeatures, { seed }), options)) as [Int8Linear, Int8Linear, Int8Linear];

describe.each(['cpu', 'wasm'] as const)('int8QkvProjection on %s', (backend) => {
  beforeAll(() => useBackend(backend));
  afterAll(() => useBackend('cpu'));

  it.each(['simd', 'js', undefined] as const)('equals the three forwards concatenated, bit for bit (kernel %s), and leaks nothing', async (kernel) => {
    const [q, k, v] = triple(48, 24, kernel === undefined ? {} : { kernel });
    const x = randomNormal([2, 7, 48], 0, 2, 'float32', 5);
    const want = tidy(() => concat([q.forward(x), k.forward(x), v.forward(x)], -1)); // [2, 7, 72]
    const got = int8QkvProjection(q, k, v, x);
    expect(got.shape).toEqual([2, 7, 72]);
    expect(Array.from(got.dataSync())).toEqual(Array.from(want.dataSync()));
    expect(await leaksOf(() => int8QkvProjection(q, k, v, x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, want, got].forEach((t) => t.dispose());
    [q, k, v].forEach((m) => m.dispose());
  });

  it('uses the current weights: a changed weight after a first call changes the product', () => {
    const [q, k, v] = triple(16, 8);
    const x = randomNormal([3, 16], 0, 1, 'float32', 6);
    int8QkvProjection(q, k, v, x).dispose();
    (k.weight.values as Int8Array).fill(1);
    const want = tidy(() => concat([q.forward(x), k.forward(x), v.forward(x)], -1));
    const got = int8QkvProjection(q, k, v, x);
    expect(Array.from(got.dataSync())).toEqual(Array.from(want.dataSync()));
    [x, want, got].forEach((t) => t.dispose());
    [q, k, v].forEach((m) => m.dispose());
  });
});

describe('int8QkvFusable and int8QkvProjection refusals', () => {
  it('says which triples fuse', () => {
    const [q, k, v] = triple(8, 4);
    expect(int8QkvFusable(q, k, v)).toBe(true);
    const float = new Linear(8, 4);
    expect(int8QkvFusable(q, k, float)).toBe(false);
    const [, wide] = triple(16, 4);
    expect(int8QkvFusable(q, wide, v)).toBe(false);
    const [, js] = triple(8, 4, { kernel: 'js' });
    expect(int8QkvFusable(q, js, v)).toBe(false);
    const noBias = new Int8Linear(quantizeWeightPerChannel({ values: new Float32Array(32).fill(0.5), inFeatures: 8, outFeatures: 4 }));
    expect(int8QkvFusable(q, k, noBias)).toBe(false);
    expect(int8QkvFusable(null, k, v)).toBe(false);
    [q, k, v, float, wide, js, noBias].forEach((m) => m?.dispose());
  });

  it('refuses layers that do not fuse and inputs of another width with typed errors', () => {
    const [q, k, v] = triple(8, 4);
    const float = new Linear(8, 4);
    const e = thrown(() => int8QkvProjection(q, k, float as never, randomNormal([2, 8])));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toContain("int8QkvProjection: 'query, key, value' must be three live Int8Linear layers in eval mode of the same input width and kernel");
    const x = randomNormal([2, 5]);
    expect(thrown(() => int8QkvProjection(q, k, v, x)).message).toBe("int8QkvProjection: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 8; received [2, 5].");
    v.dispose();
    expect(thrown(() => int8QkvProjection(q, k, v, x))).toBeInstanceOf(InvalidArgumentError); // a disposed layer
    [x].forEach((t) => t.dispose());
    [q, k, float].forEach((m) => m.dispose());
  });
});
