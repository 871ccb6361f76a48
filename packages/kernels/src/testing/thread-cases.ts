// Test-only: the kernels give the same numbers, bit for bit, whatever the thread count (threads
// only split the output columns of an int8 or float32 product and the heads of an attention).
import { expect } from 'vitest';
import { f32Kernel, f32Kernels } from '../f32-kernels.js';
import { fusedAttentionKernel } from '../fused-attention-kernels.js';
import { int8Kernel, int8Kernels } from '../int8-kernels.js';
import { startKernelThreads, withSmallJobWork } from '../kernel-threads.js';
import { int8Case } from './int8-cases.js';
import { fusedAttentionProblem, FUSED_ATTENTION_CASES } from './fused-attention-cases.js';
import { seededNormals } from './fused-attention-cases.js';

/** [N, M, K]: column pairs that do not split evenly over 2 or 3 threads, fewer pairs than threads, a MiniLM FFN slice, one row (a decoding step: parts ending inside a two-tile step). */
const SHAPES: ReadonlyArray<readonly [number, number, number]> = [[5, 1, 31], [7, 3, 33], [13, 131, 77], [65, 67, 129], [130, 385, 384], [9, 2, 16], [1, 7, 33], [1, 131, 77], [1, 386, 384], [1, 2, 8]];

/** Every output of every wasm kernel at each thread count, as plain arrays (float outputs as numbers). */
async function outputs(threads: number): Promise<{ report: Awaited<ReturnType<typeof startKernelThreads>>; values: Map<string, number[]> }> {
  const report = await startKernelThreads({ threads });
  return { report, values: withSmallJobWork(0, () => collect()) }; // every job split among the threads, however small
}

/** Every output of every wasm kernel, as plain arrays (float outputs as numbers), at the thread count set now. */
function collect(): Map<string, number[]> {
  const values = new Map<string, number[]>();
  for (const name of int8Kernels().supported.filter((n) => n !== 'js')) {
    const kernel = int8Kernel(name, 'test');
    SHAPES.forEach((dims, i) => {
      const { a, b, rowScales, colScales, bias, shape } = int8Case(dims, kernel.activationLevels, 77 + i);
      values.set(`${name} multiply [${dims.join(', ')}]`, Array.from(kernel.multiply(a, b, shape, rowScales, colScales, bias)));
      values.set(`${name} multiply + gelu [${dims.join(', ')}]`, Array.from(kernel.multiply(a, b, shape, rowScales, colScales, bias, 'gelu')));
      const x = seededNormals(dims[0] * dims[2], 500 + i);
      values.set(`${name} quantizedMultiply [${dims.join(', ')}]`, Array.from(kernel.quantizedMultiply(x, b, shape, colScales, undefined, 'test')));
      const residualLayerNorm = { residual: seededNormals(dims[0] * dims[1], 700 + i), gamma: seededNormals(dims[1], 800 + i), beta: seededNormals(dims[1], 850 + i), epsilon: 1e-5 };
      values.set(`${name} quantizedMultiply + residual LayerNorm [${dims.join(', ')}]`, Array.from(kernel.quantizedMultiply(x, b, shape, colScales, bias, 'test', undefined, residualLayerNorm)));
    });
  }
  for (const name of f32Kernels().supported) {
    const kernel = f32Kernel(name, 'test');
    SHAPES.forEach(([rows, cols, depth], i) => {
      const x = seededNormals(rows * depth, 300 + i);
      const base = { read: () => x, weight: ((w) => () => w)(seededNormals(cols * depth, 350 + i)), bias: seededNormals(cols, 400 + i), rows, cols, depth, activation: undefined, residualLayerNorm: undefined, inPlace: false, caller: 'test' };
      const residualLayerNorm = { residual: seededNormals(rows * cols, 450 + i), gamma: seededNormals(cols, 460 + i), beta: seededNormals(cols, 470 + i), epsilon: 1e-5 };
      values.set(`f32 ${name} multiply [${rows}, ${cols}, ${depth}]`, Array.from(kernel.multiply(base)));
      values.set(`f32 ${name} multiply + gelu + residual LayerNorm [${rows}, ${cols}, ${depth}]`, Array.from(kernel.multiply({ ...base, activation: 'gelu', residualLayerNorm })));
    });
  }
  const attention = fusedAttentionKernel('simd', 'test');
  FUSED_ATTENTION_CASES.forEach((c, i) => values.set(`fused attention ${c.label}`, Array.from(attention.run(fusedAttentionProblem(c, 900 + i)))));
  return values;
}

/**
 * Runs every wasm kernel single-threaded, then at each of `counts`, expecting those reports to
 * say `threads: count` and every number to be identical. Returns how many outputs were compared.
 */
export async function expectSameNumbersOnThreads(counts: readonly number[]): Promise<number> {
  const single = await outputs(1);
  expect(single.report.threads).toBe(1);
  for (const count of counts) {
    const threaded = await outputs(count);
    expect(threaded.report, `startKernelThreads({ threads: ${count} })`).toEqual({ threads: count, requested: count, state: 'ready' });
    for (const [label, want] of single.values) expect(threaded.values.get(label), `${label} on ${count} threads`).toEqual(want);
  }
  return single.values.size;
}
