import { engine, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DECODE_ATTENTION_KERNEL, fusedAttention, fusedAttentionReference, kernelThreads, startKernelThreads } from '@attnkit/kernels';
import { leaksOf, seededIntegers } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

/** `n` values in [−2, 2) from a seed. */
function values(n: number, seed: number): Float32Array {
  const next = seededIntegers(seed);
  return Float32Array.from({ length: n }, () => next(4000) / 1000 - 2);
}

/** fusedAttention calls of at most 4 query rows (the attention-rows fill), each with more than 2¹⁶ multiply-adds so that it is split: [B, H, T, S, D, Dv], mask, bias. */
const ROWS = [
  { sizes: [2, 3, 3, 200, 64, 64], mask: true, bias: false },
  { sizes: [1, 12, 1, 150, 64, 64], mask: false, bias: false },
  { sizes: [5, 2, 4, 77, 24, 40], mask: false, bias: true },
] as const;

/** Decoding steps (the decode-attention fill): [B, H, Hkv, D, cached positions], each above 2¹⁶ multiply-adds. */
const STEPS = [[4, 9, 3, 64, 160], [1, 12, 12, 64, 99], [3, 4, 1, 32, 200]] as const;

/** Every output of both fills at the kernel thread count set now, and fusedAttentionReference's for the rows. */
function outputs(): { got: Map<string, Float32Array>; reference: Map<string, Float32Array> } {
  const [got, reference] = [new Map<string, Float32Array>(), new Map<string, Float32Array>()];
  ROWS.forEach(({ sizes, mask, bias }, i) => {
    const [b, h, t, s, d, dv] = sizes;
    const [q, k, v] = [values(b * h * t * d, 10 + i), values(b * h * s * d, 20 + i), values(b * h * s * dv, 30 + i)];
    const maskValues = Uint8Array.from({ length: b * s }, (_, j) => (j % 7 === 3 ? 0 : 1));
    const biasValues = values(h * t * s, 40 + i);
    const inputs: Tensor[] = [tensor(q, [b, h, t, d]), tensor(k, [b, h, s, d]), tensor(v, [b, h, s, dv])];
    const options = { ...(mask ? { mask: tensor(maskValues, [b, 1, 1, s], 'bool') } : {}), ...(bias ? { bias: tensor(biasValues, [1, h, t, s]) } : {}) };
    const out = fusedAttention(inputs[0]!, inputs[1]!, inputs[2]!, options);
    const label = `attention rows [${sizes.join(', ')}]${mask ? ' masked' : ''}${bias ? ' with a bias' : ''}`;
    got.set(label, out.dataSync() as Float32Array);
    reference.set(label, fusedAttentionReference({
      batch: b, heads: h, queryLength: t, keyLength: s, headDim: d, valueDim: dv, scale: 1 / Math.sqrt(d), query: q, key: k, value: v,
      ...(mask ? { mask: { values: maskValues, strides: [s, 0, 0] } } : {}), ...(bias ? { bias: { values: biasValues, strides: [0, t * s, s] } } : {}),
    }));
    [...inputs, out, ...Object.values(options)].forEach((x) => x.dispose());
  });
  STEPS.forEach(([batch, heads, kvHeads, dim, length], i) => {
    const width = (heads + 2 * kvHeads) * dim;
    const qkv = tensor(values(batch * width, 50 + i), [batch, 1, width]);
    const [cacheKey, cacheValue] = [0, 1].map((j) => tensor(values(batch * kvHeads * (length + 1) * dim, 60 + 2 * i + j), [batch, kvHeads, length + 1, dim])) as [Tensor, Tensor];
    const out = engine().runKernel(DECODE_ATTENTION_KERNEL, { query: qkv, key: qkv, value: qkv, cacheKey, cacheValue }, { heads, queryAt: 0, keyAt: heads * dim, valueAt: (heads + kvHeads) * dim, length, capacity: length + 1, scale: 1 / Math.sqrt(dim) } as never) as unknown as Tensor[];
    got.set(`decode attention [B ${batch}, H ${heads}, Hkv ${kvHeads}, D ${dim}, S ${length + 1}]`, out[0]!.dataSync() as Float32Array);
    [qkv, cacheKey, cacheValue, ...out].forEach((x) => x.dispose()); // the caches were written in place: their memory is the outputs'
  });
  return { got, reference };
}

describe('attention rows on wasm, split among the kernel threads by (batch, head) pairs (the fills on tfjs-wasm\'s shared memory)', () => {
  afterAll(() => startKernelThreads());

  it('give the same numbers bit for bit on 1, 2 and 3 threads, within 1e-6 of fusedAttentionReference, and keep the thread count when the fills join the workers', async () => {
    const caps = await useBackend('wasm');
    expect(caps.wasm?.threads).toBe(true); // tfjs-wasm's threaded build: its memory is shared
    await startKernelThreads({ threads: 1 });
    const single = outputs();
    expect(single.got.size).toBe(ROWS.length + STEPS.length);
    for (const [label, want] of single.reference) {
      const got = single.got.get(label)!;
      const worst = got.reduce((m, x, j) => Math.max(m, Math.abs(x - want[j]!) / Math.max(1, Math.abs(want[j]!))), 0);
      expect(worst, label).toBeLessThanOrEqual(1e-6);
    }
    for (const threads of [2, 3]) {
      await startKernelThreads({ threads });
      outputs(); // the first call brings the fills' module to the workers (they restart once, in Node before it returns)
      expect(kernelThreads()).toEqual({ threads, requested: threads, state: 'ready' });
      const threaded = outputs();
      for (const [label, want] of single.got) expect(Array.from(threaded.got.get(label)!), `${label} on ${threads} threads`).toEqual(Array.from(want));
    }
  });

  it('leak nothing on threads: the scratch and job words are freed', async () => {
    await useBackend('wasm');
    await startKernelThreads({ threads: 2 });
    outputs();
    expect(await leaksOf(() => void outputs())).toEqual({ tensors: 0, bytes: 0 });
  });
});
