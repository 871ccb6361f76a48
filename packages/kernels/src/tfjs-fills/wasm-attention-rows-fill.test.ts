import { concat, engine, profile, tensor, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { fusedAttention } from '../fused-attention.js';
import { fusedAttentionReference } from '../fused-attention-reference.js';
import { FUSED_ATTENTION_CASES, fusedAttentionProblem, relativeDifference } from '../testing/fused-attention-cases.js';
import { useTfjsBackend } from '../testing/use-tfjs-backend.js';
import { kernelRoute } from '../kernel-route.js';
import { ATTENTION_ROWS_KERNEL, ATTENTION_ROWS_MAX_QUERIES } from './wasm-attention-rows-fill.js';

/** The case's tensors: q, k, v and the mask and bias as given (broadcast axes of size 1, the last axis whole). */
function tensorsOf(c: (typeof FUSED_ATTENTION_CASES)[number], seed: number) {
  const p = fusedAttentionProblem(c, seed);
  const [b, h, t, s, d, dv] = c.sizes;
  return {
    problem: p,
    query: tensor(p.query, [b, h, t, d]),
    key: tensor(p.key, [b, h, s, d]),
    value: tensor(p.value, [b, h, s, dv]),
    mask: c.mask === undefined ? undefined : tensor(p.maskValues!, [...c.mask], 'bool'),
    bias: c.bias === undefined ? undefined : tensor(p.biasValues!, [...c.bias], 'float32'),
  };
}

describe('ATTENTION_ROWS_KERNEL on wasm (fusedAttention of a decoding step)', () => {
  beforeAll(() => useTfjsBackend('wasm'));
  afterAll(() => useTfjsBackend('cpu'));
  const few = FUSED_ATTENTION_CASES.filter((c) => c.sizes[2] <= ATTENTION_ROWS_MAX_QUERIES && c.sizes[2] > 0 && (c.mask === undefined || c.mask[3] === c.sizes[3]) && (c.bias === undefined || c.bias[3] === c.sizes[3]));

  it('has decoding cases to run: one query row, grouped rows, a full block, masks and biases', () => {
    expect(few.map((c) => c.label).length).toBeGreaterThanOrEqual(5);
  });

  it.each(few.map((c) => [c.label, c] as const))('%s: within 1e-6 of fusedAttentionReference, the kernel module\'s numbers bit for bit, leaking nothing', async (_, c) => {
    const before = engine().state.numTensors;
    const { problem, query, key, value, mask, bias } = tensorsOf(c, 11);
    const options = { ...(mask === undefined ? {} : { mask }), ...(bias === undefined ? {} : { bias }) };
    const routed = fusedAttention(query, key, value, options); // the fill (default kernel, wasm)
    const ran = c.sizes[0] * c.sizes[1] * c.sizes[2] * c.sizes[5] > 0;
    const module = fusedAttention(query, key, value, { ...options, kernel: 'simd' }); // the kernel module, forced
    const [got, want] = [await routed.data(), await module.data()];
    expect(Array.from(got)).toEqual(Array.from(want));
    if (ran) expect(relativeDifference(fusedAttentionReference(problem), got)).toBeLessThanOrEqual(1e-6);
    expect(await leaksOf(() => fusedAttention(query, key, value, options).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [routed, module, query, key, value, mask, bias].forEach((t) => t?.dispose());
    expect(engine().state.numTensors).toBe(before);
  });

  it.each(few.map((c) => [c.label, c] as const))('%s: keyLength S over key and value of 7 more positions gives the numbers of the first S alone, bit for bit, on the fill, the kernel module and the js kernel', async (_, c) => {
    const { query, key, value, mask, bias } = tensorsOf(c, 5);
    const [b, h, , s] = c.sizes;
    const junk = (x: Tensor) => tensor(Float32Array.from({ length: b * h * 7 * x.shape[3]! }, (_, i) => (i % 2 === 0 ? 1e30 : Number.NaN)), [b, h, 7, x.shape[3]!]); // never read
    const [longKey, longValue] = [concat([key, junk(key)], 2), concat([value, junk(value)], 2)];
    const options = { ...(mask === undefined ? {} : { mask }), ...(bias === undefined ? {} : { bias }) };
    const want = await fusedAttention(query, key, value, options).data();
    for (const kernel of [undefined, 'simd', 'js'] as const) {
      const got = fusedAttention(query, longKey, longValue, { ...options, keyLength: s, ...(kernel === undefined ? {} : { kernel }) });
      expect(Array.from(await got.data()), kernel ?? 'the fill').toEqual(Array.from(kernel === 'js' ? await fusedAttention(query, key, value, { ...options, kernel }).data() : want));
      got.dispose();
    }
    expect(await leaksOf(() => fusedAttention(query, longKey, longValue, { ...options, keyLength: s, kernel: 'simd' }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [query, key, value, mask, bias, longKey, longValue].forEach((t) => t?.dispose());
  });

  it('refuses a keyLength that is no integer from 0 to the positions key holds', () => {
    const q = tensor(new Float32Array(8), [1, 1, 1, 8]);
    const k = tensor(new Float32Array(40), [1, 1, 5, 8]);
    expect(() => fusedAttention(q, k, k, { keyLength: 6 })).toThrow("fusedAttention: 'keyLength' must be an integer from 0 to 5; received number 6.");
    expect(() => fusedAttention(q, k, k, { keyLength: 1.5 })).toThrow(/'keyLength' must be an integer/);
    const mask = tensor([true, true, true, true, true], [1, 1, 1, 5], 'bool');
    expect(() => fusedAttention(q, k, k, { keyLength: 3, mask })).toThrow(/'mask' must be a rank-4 bool tensor broadcastable to \[B, H, T, S\] = \[1, 1, 1, 3\]/);
    expect(() => engine().runKernel(ATTENTION_ROWS_KERNEL, { query: q, key: k, value: k }, { scale: 1, keyLength: 6 })).toThrow("AttnkitAttentionRows: 'keyLength' must be an integer from 0 to 5 (the positions key holds); received number 6.");
    [q, k, mask].forEach((t) => t.dispose());
  });

  it('is what fusedAttention runs for T ≤ 4 on wasm (and only then), and is routed only outside gradient recording', async () => {
    const q = tensor(new Float32Array(2 * 3 * 8), [1, 2, 3, 8]);
    const k = tensor(new Float32Array(2 * 5 * 8), [1, 2, 5, 8]);
    const kernels = async (f: () => Tensor) => (await profile(() => { f().dispose(); })).kernels.map((kernel) => kernel.name);
    expect(await kernels(() => fusedAttention(q, k, k))).toContain(ATTENTION_ROWS_KERNEL);
    expect(await kernels(() => fusedAttention(k, k, k))).not.toContain(ATTENTION_ROWS_KERNEL); // T = 5: the kernel module
    expect(await kernels(() => fusedAttention(q, k, k, { kernel: 'simd' }))).not.toContain(ATTENTION_ROWS_KERNEL); // a kernel asked for by name
    expect(kernelRoute('attentionRows', [q]).useKernel).toBe(true);
    [q, k].forEach((t) => t.dispose());
  });
});
