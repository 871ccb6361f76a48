import { setBackend, zeros, type Tensor } from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkpointRefusals } from './checkpoint-refusals.js';

beforeAll(() => setBackend('cpu'));
const SHAPES = { 'W_q.weight': [3, 2], 'W_k.weight': [3, 4], 'w.weight': [1, 3] };

/** A stand-in for a module built from a checkpoint: strict, or ignoring unknown keys, or leaking a tensor when it throws. */
function builder(kind: 'strict' | 'lenient' | 'leaky') {
  return (checkpoint: Map<string, Tensor>) => {
    const missingKeys = Object.keys(SHAPES).filter((key) => !checkpoint.has(key));
    const unexpectedKeys = kind === 'lenient' ? [] : [...checkpoint.keys()].filter((key) => !Object.hasOwn(SHAPES, key));
    const mismatchedKeys = Object.entries(SHAPES).filter(([key, shape]) => checkpoint.has(key) && String((checkpoint.get(key) as { shape?: number[] }).shape) !== String(shape)).map(([key]) => ({ key }));
    if (kind === 'leaky') zeros([1]);
    if (missingKeys.length + unexpectedKeys.length + mismatchedKeys.length > 0) throw Object.assign(new Error('does not fit'), { name: 'StateDictError', missingKeys, unexpectedKeys, mismatchedKeys });
    return { dispose() {} };
  };
}

describe('checkpointRefusals', () => {
  it('plants each problem, and all at once, in a checkpoint that fits; a strict loader reports exactly those', () => {
    const { actual, expected } = checkpointRefusals(builder('strict'), SHAPES, { 'W_k.bias': [3] });
    expect(actual).toEqual(expected);
    expect(expected.map((c) => c.problem)).toEqual(['a misspelled key', 'an extra key nothing uses', 'a missing key', 'a mis-shaped tensor', 'a value that is not a tensor', 'a key its config turns off (W_k.bias)', 'all of these at once']);
    expect(expected.at(-1)).toEqual({ problem: 'all of these at once', error: 'StateDictError', keys: { missing: ['W_k.weight', 'w.weight'], unexpected: ['W_k.bias', 'W_k.weigth', 'unused.weight'], mismatched: ['W_q.weight'] }, tensorsLeft: 0 });
  });

  it('shows a loader that ignores unknown keys, and one that leaks when it throws', () => {
    const lenient = checkpointRefusals(builder('lenient'), SHAPES);
    expect(lenient.actual.find((c) => c.problem === 'an extra key nothing uses')?.error).toBe('none');
    const leaky = checkpointRefusals(builder('leaky'), SHAPES);
    expect(leaky.actual.map((c) => c.tensorsLeft)).toEqual(leaky.expected.map(() => 1));
  });
});
