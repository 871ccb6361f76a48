// Times the float32 GEMM kernels (f32MatMul) against tfjs-wasm's fused matMul (XNNPACK) on BERT
// MiniLM shapes, 1 and 2 threads (the kernels on the same number of threads), and prints a
// markdown table (GFLOP/s = 2·N·K·M / time; medians of interleaved runs). Both take x [N, K] and the
// weight in Linear's layout [M, K] with a bias, and include their uploads and the read-back.
//   pnpm --filter @attnkit/bench exec tsx --conditions=@attnkit/source src/kernels/bench-f32.ts
// tfjs-wasm's thread count is fixed when the backend starts, so each thread count runs in its own
// process (scripts/bench-runner.ts re-runs this script per count, with --experimental-wasm-relaxed-simd).
import { env, fused, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { describeBackend, useBackend } from '@attnkit/backends';
import { f32Kernels, f32MatMul, startKernelThreads } from '@attnkit/kernels';
import { BENCH_THREADS, medianTimes, perThreadCount, RUNS } from './bench-runner.js';

env().set('PROD', true);
const SHAPES = [[1024, 384, 1536], [1024, 1536, 384], [1024, 384, 384]] as const; // [N, K, M]: FFN in, FFN out, attention projection
interface Row { shape: string; threads: number; engine: string; ms: number; gflops: number; vsTfjs: number }

async function measure(): Promise<Row[]> {
  await useBackend('wasm', { numThreads: BENCH_THREADS });
  const achieved = (await describeBackend()).wasm?.threadCount ?? 1;
  await startKernelThreads({ threads: achieved });
  const rows: Row[] = [];
  for (const [n, k, m] of SHAPES) {
    const x = randomNormal([n, k], 0, 1, 'float32', 1);
    const w = randomNormal([m, k], 0, 0.05, 'float32', 2); // [M, K]: Linear's layout
    const bias = randomNormal([m], 0, 0.1, 'float32', 3);
    const run = (product: () => Tensor) => (): void => {
      const y = product();
      y.dataSync();
      y.dispose();
    };
    const engines: Record<string, () => void> = { [`tfjs-wasm fused matMul (${achieved} thread${achieved > 1 ? 's' : ''})`]: run(() => fused.matMul({ a: x, b: w, transposeB: true, bias })) };
    for (const kernel of f32Kernels().supported) engines[`f32MatMul ${kernel}`] = run(() => f32MatMul(x, w, bias, { kernel }));
    const times = await medianTimes(engines);
    const tfjs = Object.values(times)[0]!;
    for (const [engine, ms] of Object.entries(times)) rows.push({ shape: `[${n}, ${k}]·[${m}, ${k}]ᵀ`, threads: achieved, engine, ms, gflops: (2 * n * m * k) / ms / 1e6, vsTfjs: tfjs / ms });
    [x, w, bias].forEach((t) => t.dispose());
  }
  return rows;
}

const rows = await perThreadCount(import.meta.url, measure);
if (rows !== undefined) {
  console.log(`float32 GEMM vs tfjs-wasm, Node ${process.version}, median of ${RUNS} runs (GFLOP/s = 2·N·K·M / time)\n`);
  console.log('| shape [N, K]·[M, K]ᵀ | threads | engine | ms | GFLOP/s | × tfjs-wasm (same threads) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.shape} | ${r.threads} | ${r.engine} | ${r.ms.toFixed(1)} | ${r.gflops.toFixed(1)} | ${r.vsTfjs.toFixed(2)} |`);
}
