import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { kernelThreads, kernelThreadsReady, startKernelThreads, stopKernelThreads } from './kernel-threads.js';
import { expectSameNumbersOnThreads } from './testing/thread-cases.js';

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
