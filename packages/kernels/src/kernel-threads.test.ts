import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { kernelThreads, kernelThreadsReady, KERNEL_SPIN_MICROSECONDS, sharedKernelInstance, startKernelThreads, stopKernelThreads, withSmallJobWork } from './kernel-threads.js';
import { expectSameNumbersOnThreads } from './testing/thread-cases.js';
import { int8Case } from './testing/int8-cases.js';
import { int8Kernel } from './int8-kernels.js';
import { int8MatMulReference } from './int8-mat-mul-reference.js';
import { dequantizeAccumulators } from './dequantize-accumulators.js';
import { seededIntegers, thrown } from '@attnkit/test-utils';

describe('kernel threads in Node', () => {
  afterAll(() => startKernelThreads());

  it('start with the first kernel call or on request, and say how many', async () => {
    const report = await startKernelThreads({ threads: 2 });
    expect(report).toEqual({ threads: 2, requested: 2, state: 'ready' });
    expect(kernelThreads()).toEqual(report);
  });

  it('give every kernel the same numbers, bit for bit, on 1, 2 and 3 threads (uneven splits included)', async () => {
    expect(await expectSameNumbersOnThreads([2, 3])).toBeGreaterThan(20);
  });

  it('hand back-to-back jobs from thread to thread without losing or repeating a chunk: workers awake, asleep and late', async () => {
    // each job's chunks go to whichever thread claims them first; a worker that is still on the last
    // job, or just woke, must neither run a chunk of the next job with the last job's words nor count one twice
    const next = seededIntegers(2024);
    const kernel = int8Kernel('simd', 'test');
    for (const threads of [2, 3]) {
      await startKernelThreads({ threads });
      for (let job = 0; job < 240; job++) {
        const dims = [1 + next(6), 1 + next(300), 1 + next(90)] as const;
        const { a, b, rowScales, colScales, bias, shape } = int8Case(dims, kernel.activationLevels, 5000 + job);
        const got = withSmallJobWork(0, () => kernel.multiply(a, b, shape, rowScales, colScales, bias));
        expect(Array.from(got), `${threads} threads, job ${job} [${dims.join(', ')}]`).toEqual(Array.from(dequantizeAccumulators(int8MatMulReference(a, b, shape), rowScales, colScales, bias)));
        if (job % 40 === 39) await new Promise((resolve) => setTimeout(resolve, 1 + (2 * KERNEL_SPIN_MICROSECONDS) / 1000)); // past the spin: the workers sleep
      }
    }
  });

  it('report a trap on the calling thread only once the workers are done with the job, and run the next job right', async () => {
    await startKernelThreads({ threads: 2 });
    const kernel = int8Kernel('simd', 'test');
    const instance = sharedKernelInstance<object>('int8-gemm-simd')!;
    const far = 0x7ff0_0000; // past the end of the memory: every chunk traps
    const job = instance.base; // gemm_job: n, m, k, row_scale, col_scale, bias, activation, out, scratch, phase (1: residual LayerNorm of the rows), residual, gamma, beta, eps, ...
    new Int32Array(instance.memory.buffer, job, 20).set([64, 8, 8, 0, 0, 0, 0, far, 0, 1, far, far, far, 0, 0, 0, 0, 0, 0, 0]);
    expect(() => instance.run(job)).toThrow(WebAssembly.RuntimeError);
    const { a, b, rowScales, colScales, bias, shape } = int8Case([3, 200, 40], kernel.activationLevels, 9);
    const got = withSmallJobWork(0, () => kernel.multiply(a, b, shape, rowScales, colScales, bias));
    expect(Array.from(got)).toEqual(Array.from(dequantizeAccumulators(int8MatMulReference(a, b, shape), rowScales, colScales, bias)));
  });

  it('quantize activations on every thread and name the first non-finite value whichever thread met it', async () => {
    const [rows, cols, depth] = [13, 6, 9];
    const x = Float32Array.from({ length: rows * depth }, (_, i) => Math.sin(i));
    x[11 * depth + 4] = Number.NaN; // in the last thread's rows
    x[12 * depth + 1] = Number.POSITIVE_INFINITY;
    const b = Int8Array.from({ length: cols * depth }, (_, i) => (i % 5) - 2);
    for (const threads of [1, 2, 3]) {
      await startKernelThreads({ threads });
      const error = thrown(() => withSmallJobWork(0, () => int8Kernel('simd', 'test').quantizedMultiply(x, b, { rows, cols, depth }, new Float32Array(cols).fill(1), undefined, 'int8MatMul'))); // split however small
      expect(error, `${threads} threads`).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe("int8MatMul: 'x' must be finite values only (int8 quantization scales each row by its largest magnitude); received NaN at flat index 103. Replace or mask the non-finite values first.");
    }
  });

  it('stop, leaving every call on the calling thread (kernelThreadsReady keeps that choice), and start again', async () => {
    stopKernelThreads();
    expect(kernelThreads()).toMatchObject({ threads: 1, state: 'off', reason: 'one thread was asked for' });
    expect(await kernelThreadsReady()).toMatchObject({ threads: 1, state: 'off' });
    expect(await startKernelThreads({ threads: 2 })).toMatchObject({ threads: 2, state: 'ready' });
    expect(await kernelThreadsReady()).toMatchObject({ threads: 2, state: 'ready' });
  });

  it.each([0, 17, 1.5, Number.NaN, '2', null])('refuses threads = %s with a typed error naming the range', async (threads) => {
    const error = await startKernelThreads({ threads: threads as number }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(String(error)).toMatch(/an integer from 1 to 16/);
  });

  it('refuses unknown options and a non-object', async () => {
    await expect(startKernelThreads({ thread: 2 } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(startKernelThreads(2 as never)).rejects.toThrow(InvalidArgumentError);
  });
});
