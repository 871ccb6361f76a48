import { beforeAll, describe, expect, it } from 'vitest';
import { gather, memory, randomNormal, reshape, tensor1d, tensor2d, tidy } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { maskedLanguageModelLoss } from './masked-language-model-loss.js';

beforeAll(() => useBackend('cpu'));

describe('maskedLanguageModelLoss', () => {
  it('is the mean cross-entropy of the labelled rows (ln V for equal logits), and leaves no tensor', async () => {
    const before = memory().numTensors;
    const flat = tensor2d([[0, 0, 0, 0], [0, 0, 0, 0]]);
    const loss = maskedLanguageModelLoss(flat, [1, -100]);
    expect(await loss.data()).toEqual(new Float32Array([Math.fround(Math.log(4))]));
    const logits = tensor2d([[2, 0, 0], [0, 1, 3], [5, 5, 5]]);
    const second = maskedLanguageModelLoss(logits, [0, 2, -100]);
    const value = (await second.data())[0]!;
    const ce = (row: number[], label: number) => Math.log(row.reduce((a, x) => a + Math.exp(x), 0)) - row[label]!;
    expect(value).toBeCloseTo((ce([2, 0, 0], 0) + ce([0, 1, 3], 2)) / 2, 6);
    [flat, loss, logits, second].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });

  it('gives the same value for [B, T, V] with [B, T] labels, an int32 tensor of labels, and the labelled rows alone', async () => {
    const logits = randomNormal([2, 3, 5], 0, 1, 'float32', 1);
    const labels = [[-100, 4, -100], [0, -100, 2]];
    const all = (await maskedLanguageModelLoss(logits, labels).data())[0]!;
    const asTensor = tensor1d(labels.flat(), 'int32');
    const fromTensor = (await maskedLanguageModelLoss(logits, asTensor).data())[0]!;
    const rows = tidy(() => gather(reshape(logits, [6, 5]), [1, 3, 5]));
    const picked = (await maskedLanguageModelLoss(rows, [4, 0, 2]).data())[0]!;
    expect(fromTensor).toBe(all);
    expect(picked).toBeCloseTo(all, 6);
    [logits, asTensor, rows].forEach((t) => t.dispose());
  });

  it('refuses bad input with typed errors', () => {
    const logits = tensor2d([[0, 0, 0], [0, 0, 0]]);
    expect(() => maskedLanguageModelLoss(logits, [-100, -100])).toThrow(/at least one label that is not -100/);
    expect(() => maskedLanguageModelLoss(logits, [1])).toThrow(/2 labels, one per row of logits \[2, 3\]/);
    expect(() => maskedLanguageModelLoss(logits, [3, -100])).toThrow(/an id in \[0, 3\) or -100/);
    expect(() => maskedLanguageModelLoss(logits, [-1, 0])).toThrow(InvalidArgumentError);
    expect(() => maskedLanguageModelLoss(logits, 'x' as never)).toThrow(/labels/);
    const floats = tensor1d([0, 1]);
    expect(() => maskedLanguageModelLoss(logits, floats)).toThrow(/int32 ids.*float32 tensor/);
    expect(() => maskedLanguageModelLoss([[0]] as never, [0])).toThrow(/a float32 tensor \[\.\.\., V\]/);
    [logits, floats].forEach((t) => t.dispose());
  });
});

describe('maskedLanguageModelLoss arguments', () => {
  it('refuses disposed logits or labels and labels with holes (flat() would skip them), leaving no tensor', () => {
    const before = memory().numTensors;
    const logits = tensor2d([[0, 1], [1, 0]]);
    const gone = tensor2d([[0, 1], [1, 0]]);
    gone.dispose();
    expect(() => maskedLanguageModelLoss(gone, [0, 1])).toThrow(InvalidArgumentError);
    expect(() => maskedLanguageModelLoss(logits, [0, , 1] as never)).toThrow(/^maskedLanguageModelLoss: 'labels' must be 2 labels/); // eslint-disable-line no-sparse-arrays
    expect(() => maskedLanguageModelLoss(logits, [[0], [, 1]] as never)).toThrow(InvalidArgumentError); // eslint-disable-line no-sparse-arrays
    logits.dispose();
    expect(memory().numTensors).toBe(before);
  });
});
