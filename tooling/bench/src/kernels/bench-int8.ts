// Times the int8 GEMM kernels against tfjs-wasm fp32 matMul on BERT MiniLM shapes, 1 and 2
// threads (the int8 kernels on the same number of threads), and prints a markdown table (GOP/s = 2·N·M·K / time; medians of interleaved runs).
//   pnpm --filter @attnkit/bench exec tsx --conditions=@attnkit/source src/kernels/bench-int8.ts
// tfjs-wasm's thread count is fixed when the backend starts, so each thread count runs in its own
// process (scripts/bench-runner.ts re-runs this script per count, with --experimental-wasm-relaxed-simd).
import { env, matMul, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { describeBackend, useBackend } from '@attnkit/backends';
import { int8Kernel, int8Kernels, int8MatMul, quantizeRows, quantizeWeightPerChannel, startKernelThreads, type Int8KernelName } from '@attnkit/kernels';
import { BENCH_THREADS, medianTimes, perThreadCount, RUNS } from './bench-runner.js';

env().set('PROD', true);
const SHAPES = [[1024, 384, 1536], [1024, 1536, 384], [1024, 384, 384]] as const; // [N, K, M]: FFN in, FFN out, attention projection
interface Row { shape: string; threads: number; engine: string; ms: number; gops: number; vsTfjs: number }

async function measure(): Promise<Row[]> {
  await useBackend('wasm', { numThreads: BENCH_THREADS });
  const achieved = (await describeBackend()).wasm?.threadCount ?? 1;
  await startKernelThreads({ threads: achieved }); // the int8 kernels on as many threads as tfjs-wasm
  const kernels = int8Kernels().supported.filter((name) => name !== 'js');
  const rows: Row[] = [];
  for (const [n, k, m] of SHAPES) {
    const x = randomNormal([n, k], 0, 1, 'float32', 1);
    const x2 = randomNormal([n, k], 0, 1, 'float32', 3); // alternated with x: int8MatMul quantizes its input on every call (it reuses the last input's rows)
    const w = randomNormal([k, m], 0, 0.05, 'float32', 2); // [K, M], tfjs layout: matMul(x, w) needs no transpose
    const weight = quantizeWeightPerChannel(w);
    const xs = x.dataSync() as Float32Array;
    const engines: Record<string, () => unknown> = {
      [`tfjs-wasm fp32 matMul (${achieved} thread${achieved > 1 ? 's' : ''})`]: () => {
        const y = matMul(x, w);
        y.dataSync();
        y.dispose();
      },
    };
    for (const name of kernels as Int8KernelName[]) {
      const kernel = int8Kernel(name, 'bench');
      const q = quantizeRows(xs, n, k, kernel.activationLevels, 'bench', 'x');
      engines[`int8 ${name} kernel`] = () => kernel.multiply(q.values, weight.values, { rows: n, cols: m, depth: k }, q.scales, weight.scales);
      let flip = false;
      engines[`int8 ${name} int8MatMul (quantizes x)`] = () => (int8MatMul((flip = !flip) ? x : x2, weight, undefined, { kernel: name }) as Tensor).dispose();
    }
    const times = await medianTimes(engines);
    const tfjs = Object.values(times)[0]!;
    for (const [engine, ms] of Object.entries(times)) rows.push({ shape: `[${n}, ${k}]·[${k}, ${m}]`, threads: achieved, engine, ms, gops: (2 * n * m * k) / ms / 1e6, vsTfjs: tfjs / ms });
    [x, x2, w].forEach((t) => t.dispose());
  }
  return rows;
}

const rows = await perThreadCount(import.meta.url, measure);
if (rows !== undefined) {
  console.log(`int8 GEMM vs tfjs-wasm fp32, Node ${process.version}, median of ${RUNS} interleaved runs (GOP/s = 2·N·K·M / time)\n`);
  console.log('| shape [N, K]·[K, M] | wasm threads | engine | ms | GOP/s | × tfjs-wasm (same threads) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.shape} | ${r.threads} | ${r.engine} | ${r.ms.toFixed(1)} | ${r.gops.toFixed(1)} | ${r.vsTfjs.toFixed(2)} |`);
}
