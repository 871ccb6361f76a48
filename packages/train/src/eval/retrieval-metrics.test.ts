import { ones, tensor2d, tensor3d, zeros, type Tensor2D } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from '@attnkit/backends';
import { leaksOf, seededIntegers } from '@attnkit/test-utils';
import { retrievalMetrics } from './retrieval-metrics.js';

const rejection = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (error: unknown) => error as Error);

/** Unit vectors at angles 0, 0.1, 0.2, ... rad: against [1, 0], row k ranks k + 1. */
const fan = (rows: number) => tensor2d(Array.from({ length: rows }, (_, k) => [Math.cos(k * 0.1), Math.sin(k * 0.1)]));

describe.each(['cpu', 'wasm'])('retrievalMetrics (%s)', (backend) => {
  it('gives 1 / 1 / 1 for perfect retrieval', async () => {
    await useBackend(backend);
    const corpus = tensor2d([[1, 0, 0], [0, 2, 0], [0, 0, 3]]);
    const queries = tensor2d([[0, 0, 1], [5, 1, 0], [0, 1, 0.1]]);
    expect(await retrievalMetrics(queries, corpus, [2, 0, 1])).toEqual({ recallAt1: 1, recallAt10: 1, mrr: 1, queries: 3 });
    [corpus, queries].forEach((t) => t.dispose());
  });

  it('ranks by cosine: known ranks 1, 3, 10, 11 → recall@1 1/4, recall@10 3/4, exact MRR', async () => {
    await useBackend(backend);
    const corpus = fan(12);
    const queries = tensor2d([[1, 0], [2, 0], [1, 0], [1, 0]]); // length does not matter
    const metrics = await retrievalMetrics(queries, corpus, [0, 2, 9, 10]);
    expect(metrics.recallAt1).toBe(0.25);
    expect(metrics.recallAt10).toBe(0.75);
    expect(metrics.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 10 + 1 / 11) / 4, 12);
    [corpus, queries].forEach((t) => t.dispose());
  });

  it('breaks ties pessimistically: every other row scoring the same ranks ahead', async () => {
    await useBackend(backend);
    const corpus = tensor2d([[1, 0], [3, 0], [0, 1], [0, 0]]); // rows 0 and 1 point the same way; row 3 is zero (cosine 0 with anything)
    const queries = tensor2d([[1, 0], [1, 0], [0, -1], [0, 0]]);
    // query 0 → row 0: tied with row 1 → rank 2; query 1 → row 1: rank 2; query 2 → row 3 (0): tied with rows 0, 1 (0), row 2 is -1 → rank 3;
    // query 3 (zero) → row 3: every row scores 0 → rank 4
    const metrics = await retrievalMetrics(queries, corpus, [0, 1, 3, 3]);
    expect(metrics).toEqual({ recallAt1: 0, recallAt10: 1, mrr: (1 / 2 + 1 / 2 + 1 / 3 + 1 / 4) / 4, queries: 4 });
    [corpus, queries].forEach((t) => t.dispose());
  });

  it('gives the same for every chunk size, equal to a float64 reference, and leaks nothing', async () => {
    await useBackend(backend);
    const next = seededIntegers(11);
    const random = (rows: number, width: number) => Array.from({ length: rows }, () => Array.from({ length: width }, () => next(2001) / 1000 - 1));
    const [q, c] = [random(37, 8), random(23, 8)];
    const relevant = Array.from({ length: 37 }, () => next(23));
    const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0) / Math.hypot(...a) / Math.hypot(...b);
    const ranks = q.map((row, i) => c.filter((other) => cosine(row, other) >= cosine(row, c[relevant[i] as number] as number[])).length);
    const queries = tensor2d(q);
    const corpus = tensor2d(c);
    const whole = await retrievalMetrics(queries, corpus, relevant);
    expect(whole.queries).toBe(37);
    expect(whole.recallAt1).toBe(ranks.filter((r) => r === 1).length / 37);
    expect(whole.recallAt10).toBe(ranks.filter((r) => r <= 10).length / 37);
    expect(whole.mrr).toBeCloseTo(ranks.reduce((s, r) => s + 1 / r, 0) / 37, 12);
    for (const chunkSize of [1, 5, 36, 37, 100]) expect(await retrievalMetrics(queries, corpus, relevant, { chunkSize })).toEqual(whole);
    expect(await leaksOf(() => retrievalMetrics(queries, corpus, relevant, { chunkSize: 4 }))).toEqual({ tensors: 0, bytes: 0 });
    expect(await leaksOf(() => retrievalMetrics(queries, corpus, [99, ...relevant.slice(1)]).catch(() => undefined))).toEqual({ tensors: 0, bytes: 0 });
    [queries, corpus].forEach((t) => t.dispose());
  });
});

describe('retrievalMetrics input checks', () => {
  const caller = 'retrievalMetrics';
  it.each([
    [() => [ones([2, 3]), ones([4, 2])], [0, 1], {}, `${caller}: 'corpusEmbeddings' must be a float32 tensor [C, E] with C ≥ 1 and the queries' E = 3; received [4, 2].`],
    [() => [ones([2, 3]), zeros([0, 3])], [0, 1], {}, `${caller}: 'corpusEmbeddings' must be a float32 tensor [C, E] with C ≥ 1 and the queries' E = 3; received [0, 3].`],
    [() => [zeros([0, 3]), ones([4, 3])], [], {}, `${caller}: 'queryEmbeddings' must be a float32 tensor [Q, E] with Q ≥ 1 and E ≥ 1; received [0, 3].`],
    [() => [tensor3d([[[1]]]), ones([4, 3])], [0], {}, `${caller}: 'queryEmbeddings' must be a float32 tensor of rank 2 [Q, E]; received float32 tensor of rank 3 [1, 1, 1].`],
    [() => [ones([2, 3]), ones([4, 3])], [0], {}, `${caller}: 'relevant' must be a list of Q = 2 corpus row indices (one per query); received 1 indices.`],
    [() => [ones([2, 3]), ones([4, 3])], [0, 4], {}, `${caller}: 'relevant[1]' must be an integer from 0 to 3; received number 4.`],
    [() => [ones([2, 3]), ones([4, 3])], [-1, 0], {}, `${caller}: 'relevant[0]' must be an integer from 0 to 3; received number -1.`],
    [() => [ones([2, 3]), ones([4, 3])], [0, 1.5], {}, `${caller}: 'relevant[1]' must be an integer from 0 to 3; received number 1.5.`],
    [() => [ones([2, 3]), ones([4, 3])], [0, 1], { chunkSize: 0 }, `${caller}: 'chunkSize' must be an integer ≥ 1; received number 0.`],
    [() => [ones([2, 3]), ones([4, 3])], [0, 1], { chunk: 8 }, `${caller}: 'options' must be an object with only the keys chunkSize; received the unknown key 'chunk'. Did you mean 'chunkSize'?`],
    [() => [tensor2d([[1, Number.NaN]]), ones([4, 2])], [0], {}, `${caller}: 'queryEmbeddings' must be finite embeddings; received a tensor [1, 2] holding NaN or ±Infinity.`],
    [() => [ones([1, 2]), tensor2d([[1, 0], [Number.POSITIVE_INFINITY, 0]])], [0], {}, `${caller}: 'corpusEmbeddings' must be finite embeddings; received a tensor [2, 2] holding NaN or ±Infinity.`],
  ] as const)('refuses bad input with a typed error (%#), leaking nothing', async (make, relevant, options, message) => {
    await useBackend('cpu');
    const [queries, corpus] = make() as [Tensor2D, Tensor2D];
    const leaks = await leaksOf(async () => {
      const error = await rejection(retrievalMetrics(queries, corpus, relevant as unknown as number[], options as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
    [queries, corpus].forEach((t) => t.dispose());
  });

  it('takes the indices as a typed array too', async () => {
    const queries = tensor2d([[1, 0]]);
    const corpus = tensor2d([[0, 1], [1, 0]]);
    expect(await retrievalMetrics(queries, corpus, Int32Array.of(1))).toMatchObject({ recallAt1: 1 });
    [queries, corpus].forEach((t) => t.dispose());
  });
});

describe('retrievalMetrics null options', () => {
  it('refuses chunkSize null (null is no value; leave it out for its default)', async () => {
    await useBackend('cpu');
    const q = tensor2d([[1, 0]]);
    const error = await rejection(retrievalMetrics(q, q, [0], { chunkSize: null } as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^retrievalMetrics: 'chunkSize' must be an integer ≥ 1; received null/);
    q.dispose();
  });
});
