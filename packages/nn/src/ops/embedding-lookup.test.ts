import '@attnkit/backends/gradients';
import { grad, memory, mul, sum, tensor2d, tensor3d, tidy } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { embeddingLookup } from './embedding-lookup.js';

// weight [4, 3]; ids [2, 3] with id 1 three times and id 3 never
const WEIGHT = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]];
const IDS = [[1, 0, 1], [2, 1, 0]];
const DY = [[[1, 1, 1], [2, 0, 0], [0, 3, 0]], [[0, 0, 4], [5, 5, 5], [1, 2, 3]]];

describe.each(['cpu', 'wasm'] as const)('embeddingLookup on %s', (backend) => {
  it('looks rows up, and its gradient sums dy into the rows the ids name (repeats add, unused rows 0)', async () => {
    await useBackend(backend);
    const weight = tensor2d(WEIGHT);
    const ids = tensor2d(IDS, undefined, 'int32');
    const dy = tensor3d(DY);
    expect(await embeddingLookup(weight, ids).array()).toEqual(IDS.map((row) => row.map((id) => WEIGHT[id])));
    const before = memory().numTensors;
    const g = grad((w) => sum(mul(embeddingLookup(w, ids), dy)))(weight);
    // row 0: dy[0,1] + dy[1,2]; row 1: dy[0,0] + dy[0,2] + dy[1,1]; row 2: dy[1,0]; row 3: 0
    expect(await g.array()).toEqual([[3, 2, 3], [6, 9, 6], [0, 0, 4], [0, 0, 0]]);
    const padded = grad((w) => sum(mul(embeddingLookup(w, ids, 1), dy)))(weight);
    expect(await padded.array()).toEqual([[3, 2, 3], [0, 0, 0], [0, 0, 4], [0, 0, 0]]);
    expect(memory().numTensors).toBe(before + 2);
    // ids disposed by the caller's tidy before the backward pass (as a model's forward does)
    const late = grad((w) => sum(mul(tidy(() => embeddingLookup(w, tensor2d(IDS, undefined, 'int32'))), dy)))(weight);
    expect(await late.array()).toEqual(await g.array());
    [weight, ids, dy, g, padded, late].forEach((t) => t.dispose());
  });
});
