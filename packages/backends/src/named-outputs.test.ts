import { scalar } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
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
