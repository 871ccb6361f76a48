import { engine, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { fusedAttention } from '../fused-attention.js';
import { kernelThreads, kernelThreadsReady, startKernelThreads, withSmallJobWork } from '../kernel-threads.js';
import { FUSED_ATTENTION_CASES, fusedAttentionProblem, seededNormals } from '../testing/fused-attention-cases.js';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { wasmInternals } from '../tfjs-internals.js';
import { fillThreadsOn } from './tfjs-fills-on.js';
import { ATTENTION_ROWS_MAX_QUERIES } from './wasm-attention-rows-fill.js';
import { DECODE_ATTENTION_KERNEL } from './wasm-decode-attention-fill.js';

/** fusedAttention's few-row cases (the attention-rows fill). */
const FEW = FUSED_ATTENTION_CASES.filter((c) => c.sizes[2] <= ATTENTION_ROWS_MAX_QUERIES && c.sizes[2] > 0 && (c.mask === undefined || c.mask[3] === c.sizes[3]) && (c.bias === undefined || c.bias[3] === c.sizes[3]));

/** Decoding steps of [B, H, Hkv, D, cached positions] for the decode-attention fill: grouped heads, batches, one pair. */
const STEPS: ReadonlyArray<readonly [number, number, number, number, number]> = [[1, 9, 3, 64, 40], [4, 9, 3, 64, 23], [3, 4, 4, 16, 9], [2, 6, 1, 8, 17], [1, 2, 1, 8, 5]];

/** Every output of both fills that run the attention rows, at the kernel thread count set now, every job split however small. */
function outputs(): Map<string, number[]> {
  const values = new Map<string, number[]>();
  withSmallJobWork(0, () => {
    FEW.forEach((c, i) => {
      const p = fusedAttentionProblem(c, 31 + i);
      const [b, h, t, s, d, dv] = c.sizes;
      const inputs = [tensor(p.query, [b, h, t, d]), tensor(p.key, [b, h, s, d]), tensor(p.value, [b, h, s, dv])] as const;
      const mask = c.mask === undefined ? {} : { mask: tensor(p.maskValues!, [...c.mask], 'bool') };
      const bias = c.bias === undefined ? {} : { bias: tensor(p.biasValues!, [...c.bias], 'float32') };
      const out = fusedAttention(...inputs, { ...mask, ...bias });
      values.set(`attention rows ${c.label}`, Array.from(out.dataSync()));
      [...inputs, out, ...Object.values(mask), ...Object.values(bias)].forEach((x) => x.dispose());
    });
    STEPS.forEach(([batch, heads, kvHeads, dim, length], i) => {
      const width = (heads + 2 * kvHeads) * dim;
      const qkv = tensor(seededNormals(batch * width, 50 + i), [batch, 1, width]);
      const [cacheKey, cacheValue] = [0, 1].map((j) => tensor(seededNormals(batch * kvHeads * (length + 1) * dim, 60 + 2 * i + j), [batch, kvHeads, length + 1, dim])) as [Tensor, Tensor];
      const out = engine().runKernel(DECODE_ATTENTION_KERNEL, { query: qkv, key: qkv, value: qkv, cacheKey, cacheValue }, { heads, queryAt: 0, keyAt: heads * dim, valueAt: (heads + kvHeads) * dim, length, capacity: length + 1, scale: 1 / Math.sqrt(dim) } as never) as unknown as Tensor[];
      values.set(`decode attention [B ${batch}, H ${heads}, Hkv ${kvHeads}, D ${dim}, S ${length + 1}]`, Array.from(out[0]!.dataSync()));
      [qkv, cacheKey, cacheValue, ...out].forEach((x) => x.dispose()); // the caches were written in place: their memory is the outputs'
    });
  });
  return values;
}

// The test pages are cross-origin isolated: tfjs-wasm loads its threaded binary, whose memory the kernel workers share.
describe('the attention rows on tfjs-wasm\'s memory, split among the kernel threads in Chromium', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(async () => {
    await startKernelThreads();
    await useTfjsBackend('cpu');
  });

  it('give the same numbers bit for bit on 1, 2 and 3 threads, every (batch, head) pair split among them, leaking nothing', async () => {
    expect(fillThreadsOn(wasmInternals()!)).toBeDefined();
    await startKernelThreads({ threads: 1 });
    const single = outputs();
    expect(single.size).toBe(FEW.length + STEPS.length);
    for (const threads of [2, 3]) {
      await startKernelThreads({ threads });
      outputs(); // the first call brings the fills' module to the workers: they restart, and are up a turn later
      expect(await kernelThreadsReady()).toEqual({ threads, requested: threads, state: 'ready' });
      const threaded = outputs();
      for (const [label, want] of single) expect(threaded.get(label), `${label} on ${threads} threads`).toEqual(want);
    }
    expect(kernelThreads().threads).toBe(3);
    expect(await leaksOf(() => void outputs())).toEqual({ tensors: 0, bytes: 0 });
  });
});
