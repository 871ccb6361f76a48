import { add, concat, engine, expandDims, mul, neg, reshape, slice, tensor, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { kernelRoute } from '../kernel-route.js';
import { ROTARY_KERNEL } from './wasm-rotary-fill.js';

/** The tfjs ops the kernel replaces: [B, T, H, D] → transpose → x · cos + rotate_half(x) · sin over the first R dims. */
function composite(x: Tensor, cos: Tensor, sin: Tensor, heads: number): Tensor {
  const [b, t] = x.shape as [number, number];
  const d = x.size / (b * t * heads);
  const r = cos.shape[2] as number;
  const h = transpose(reshape(x, [b, t, heads, d]), [0, 2, 1, 3]); // [B, H, T, D]
  const [c, s] = [expandDims(cos, 1), expandDims(sin, 1)];
  const rotated = r === d ? h : slice(h, [0, 0, 0, 0], [b, heads, t, r]);
  const halfTurned = concat([neg(slice(rotated, [0, 0, 0, r / 2], [b, heads, t, r / 2])), slice(rotated, [0, 0, 0, 0], [b, heads, t, r / 2])], 3);
  const embedded = add(mul(rotated, c), mul(halfTurned, s));
  return r === d ? embedded : concat([embedded, slice(h, [0, 0, 0, r], [b, heads, t, d - r])], 3);
}
const values = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + seed) * 3);

describe('ROTARY_KERNEL on wasm', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));

  it('equals the transpose and the rotate_half ops bit for bit ([B, T, H·D] and [B, T, H, D] inputs; full and partial rotary; halves on and off four lanes), leaking nothing', async () => {
    for (const [b, t, heads, d, r] of [[1, 1, 9, 64, 64], [2, 5, 3, 8, 8], [2, 3, 2, 10, 6], [1, 4, 4, 16, 8], [3, 2, 1, 6, 2]] as const) {
      const x = tensor(values(b * t * heads * d, d), [b, t, heads * d]);
      const [cos, sin] = [tensor(values(b * t * r, 1), [b, t, r]), tensor(values(b * t * r, 2), [b, t, r])];
      for (const input of [x, reshape(x, [b, t, heads, d])]) {
        const fused = engine().runKernel(ROTARY_KERNEL, { x: input, cos, sin }, { heads }) as Tensor;
        expect(fused.shape).toEqual([b, heads, t, d]);
        expect(Array.from(await fused.data()), `[${b}, ${t}, ${heads}, ${d}] R = ${r}`).toEqual(Array.from(await composite(x, cos, sin, heads).data()));
      }
      expect(await leaksOf(() => (engine().runKernel(ROTARY_KERNEL, { x, cos, sin }, { heads }) as Tensor).dispose())).toEqual({ tensors: 0, bytes: 0 });
    }
  });

  it('rotates by the angle: a head of (1, 0) pairs at angle θ becomes (cos θ, sin θ)', async () => {
    const theta = [0.3, 1.1];
    const x = tensor([1, 1, 0, 0], [1, 1, 4]); // one head, D = 4: x₁ = (1, 1), x₂ = (0, 0)
    const cos = tensor([...theta.map(Math.cos), ...theta.map(Math.cos)], [1, 1, 4]);
    const sin = tensor([...theta.map(Math.sin), ...theta.map(Math.sin)], [1, 1, 4]);
    const y = await (engine().runKernel(ROTARY_KERNEL, { x, cos, sin }, { heads: 1 }) as Tensor).data();
    expect(Array.from(y).map((v) => Number(v.toFixed(6)))).toEqual([...theta.map(Math.cos), ...theta.map(Math.sin)].map((v) => Number(Math.fround(v).toFixed(6))));
  });

  it('gives an empty output for an empty input, and is routed only outside gradient recording', () => {
    const out = engine().runKernel(ROTARY_KERNEL, { x: tensor([], [0, 1, 8]), cos: tensor([], [0, 1, 4]), sin: tensor([], [0, 1, 4]) }, { heads: 2 }) as Tensor;
    expect(out.shape).toEqual([0, 2, 1, 4]);
    expect(kernelRoute('rotary', [tensor([[[1, 2]]])]).useKernel).toBe(true);
  });
});
