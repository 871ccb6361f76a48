import { describe, expect, it } from 'vitest';
import { embedPlan, IN_PROCESS_MAX_TEXTS } from './embed-plan.js';

const auto = { workers: undefined, threads: undefined };

describe('embedPlan', () => {
  it.each([
    ['a small input: the main thread, every core its wasm thread', auto, 200, 8, { workers: 0, threads: 8 }],
    ['up to the threshold: the main thread', auto, IN_PROCESS_MAX_TEXTS, 2, { workers: 0, threads: 2 }],
    ['past the threshold: a worker per core', auto, IN_PROCESS_MAX_TEXTS + 1, 8, { workers: 8, threads: 1 }],
    ['more than read ahead (Infinity): a worker per core', auto, Infinity, 2, { workers: 2, threads: 1 }],
    ['one core: the main thread, however large', auto, Infinity, 1, { workers: 0, threads: 1 }],
    ['--workers honoured as given, even for a small input', { workers: 1, threads: undefined }, 200, 8, { workers: 1, threads: 8 }],
    ['--workers and --threads honoured as given', { workers: 3, threads: 2 }, Infinity, 8, { workers: 3, threads: 2 }],
    ['--threads honoured in the main thread', { workers: undefined, threads: 1 }, 200, 8, { workers: 0, threads: 1 }],
  ])('%s', (_, given, texts, cores, expected) => {
    expect(embedPlan(given, texts, cores)).toEqual(expected);
  });
});
