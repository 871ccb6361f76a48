// Fused attention against the unfused tfjs-wasm ops it replaces, at BERT MiniLM's attention shapes
// ([B, H, T, S, D] = [8, 12, 128, 128, 32], padding mask [B, 1, 1, S]), medians of interleaved runs.
//   pnpm --filter @attnkit/bench exec tsx --conditions=@attnkit/source src/kernels/bench-fused-attention.ts [threads] [runs]
// Rows: 'unfused' = q·scale, matMul(q, k, transposeB), attnkit's masked softmax (the wasm kernel
// useBackend registers), matMul(weights, v); 'fusedAttention' = the public function (reads the
// inputs, runs the kernel, uploads the output); 'kernel only' = the wasm kernel on data already in
// JavaScript arrays (no tfjs).
import { engine, env, matMul, mul, ones, randomNormal, reshape, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { describeBackend, useBackend } from '@attnkit/backends';
import { fusedAttention, fusedAttentionKernel, MASKED_SOFTMAX_KERNEL } from '@attnkit/kernels';

env().set('PROD', true);
const threads = Number(process.argv[2] ?? 1);
const runs = Number(process.argv[3] ?? 15);
await useBackend('wasm', { numThreads: threads });
const [B, H, T, S, D] = [8, 12, 128, 128, 32];
const [q, k, v] = [randomNormal([B, H, T, D], 0, 1, 'float32', 1), randomNormal([B, H, S, D], 0, 1, 'float32', 2), randomNormal([B, H, S, D], 0, 1, 'float32', 3)];
const mask = reshape(ones([B, S], 'bool'), [B, 1, 1, S]);
const scale = Math.sqrt(1 / D);

const unfused = (): Tensor => tidy(() => {
  const scores = matMul(mul(q, scale), k, false, true); // [B, H, T, S]
  const weights = engine().runKernel(MASKED_SOFTMAX_KERNEL, { scores, mask }) as Tensor;
  return matMul(weights, v); // [B, H, T, D]
});
const problem = {
  batch: B, heads: H, queryLength: T, keyLength: S, headDim: D, valueDim: D, scale,
  query: q.dataSync() as Float32Array, key: k.dataSync() as Float32Array, value: v.dataSync() as Float32Array,
  mask: { values: new Uint8Array(B * S).fill(1), strides: [S, 0, 0] as const },
};
const kernel = fusedAttentionKernel('simd', 'bench');
const cases: Array<[string, () => void]> = [
  ['unfused tfjs-wasm ops', () => { const y = unfused(); y.dataSync(); y.dispose(); }],
  ['fusedAttention', () => { const y = fusedAttention(q, k, v, { mask }); y.dataSync(); y.dispose(); }],
  ['kernel only', () => { kernel.run(problem); }],
];
const times = cases.map(() => [] as number[]);
for (const [, fn] of cases) fn(); // warm-up
for (let r = 0; r < runs; r++) {
  cases.forEach(([, fn], i) => {
    const t = performance.now();
    fn();
    times[i]!.push(performance.now() - t);
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const flops = 2 * 2 * B * H * T * S * D; // the two products, multiply-adds counted as 2
const { wasm } = await describeBackend();
console.log(`tfjs-wasm, ${wasm?.threadCount} thread(s); [B, H, T, S, D] = [${B}, ${H}, ${T}, ${S}, ${D}]; medians of ${runs} interleaved runs`);
cases.forEach(([name], i) => {
  const ms = median(times[i]!);
  console.log(`${name.padEnd(24)} ${ms.toFixed(2).padStart(8)} ms  ${(flops / ms / 1e6).toFixed(1).padStart(6)} GFLOP/s`);
});
