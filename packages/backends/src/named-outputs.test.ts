import { scalar } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { namedOutputs } from './named-outputs.js';
import { useBackend } from './use-backend.js';

describe('namedOutputs', () => {
  it('names a single tensor "output", list entries by index, records by key', async () => {
    await useBackend('cpu');
    const [x, y] = [scalar(1), scalar(2)];
    expect(namedOutputs(x).map(([n]) => n)).toEqual(['output']);
    expect(namedOutputs([x, y]).map(([n, t]) => [n, t === x || t === y])).toEqual([['0', true], ['1', true]]);
    expect(namedOutputs({ output: x, attentionWeights: y }).map(([n]) => n)).toEqual(['output', 'attentionWeights']);
    x.dispose();
    y.dispose();
  });
});

describe('namedOutputs refuses what is not a live tensor', () => {
  it('names the output that is nested, not a tensor, or disposed', async () => {
    await useBackend('cpu');
    const x = scalar(1);
    expect(() => namedOutputs({ a: { b: x } } as never)).toThrow(InvalidArgumentError);
    expect(() => namedOutputs({ a: { b: x } } as never)).toThrow("namedOutputs: 'outputs.a' must be a live tensor (outputs are a tensor, a list of tensors or an object of named tensors, not nested); received Object.");
    x.dispose();
    expect(() => namedOutputs(x)).toThrow("namedOutputs: 'outputs' must be a live tensor (outputs are a tensor, a list of tensors or an object of named tensors, not nested); received a disposed float32 tensor []. It was disposed before it was returned.");
    expect(namedOutputs({})).toEqual([]);
  });
});
