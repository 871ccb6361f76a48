import '@attnkit/backends/gradients';
import { memory, square, sub, sum, tidy, variable, zeros, type Variable } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { checkTrainingRun } from './check-training-run.js';
import { runTrainingLoop, type TrainingRun } from './training-loop.js';

let w: Variable;
beforeAll(async () => {
  await useBackend('cpu');
  w = tidy(() => variable(zeros([2]), true, 'check-training-run-w'));
});
afterAll(() => w.dispose());
const run = (): TrainingRun => ({
  caller: 'test', parameters: [['w', w]], noDecay: () => false, plan: () => [[0], [1]], totalSteps: 2, learningRate: 0.1, warmupSteps: 0, weightDecay: 0, maxGradNorm: 1, seed: 1, dropout: false,
  batchLoss: () => sum(square(sub(w, 1))), setMode: () => undefined, identity: { loss: 'squared', examples: 2, dataFingerprint: 'ab', batchSize: 1 },
});

describe('checkTrainingRun', () => {
  it('passes a valid run, which runTrainingLoop then trains (the loss falls) without leaving tensors', async () => {
    expect(checkTrainingRun(run())).toBeDefined();
    const before = memory().numTensors;
    const history = await runTrainingLoop(run());
    expect(history.losses).toHaveLength(2);
    expect(history.losses[1]).toBeLessThan(history.losses[0]!);
    expect(memory().numTensors).toBe(before);
  });

  it.each([
    ['batchSize in identity', { identity: { loss: 'squared', examples: 2, dataFingerprint: 'ab', batchSize: 0 } }, /'run.identity.batchSize' must be an integer from 1/],
    ['maxGradNorm', { maxGradNorm: Number.NaN }, /'run.maxGradNorm' must be a number ≥ 0 \(0: no clipping\); received number NaN/], // NaN used to skip clipping in silence
    ['seed', { seed: null }, /'run.seed' must be an integer/], // null used to seed as 0
    ['dropout', { dropout: 'x' }, /'run.dropout' must be a boolean/],
    ['warmupSteps', { warmupSteps: null }, /'run.warmupSteps' must be an integer/],
    ['caller', { caller: null }, /'run.caller' must be the name of the trainer/],
    ['setMode', { setMode: {} }, /'run.setMode' must be a function/],
    ['save', { save: null }, /'run.save' must be a function or undefined/],
    ['saveEvery', { saveEvery: 0 }, /'run.saveEvery' must be an integer from 1/],
    ['evaluation', { evaluation: { every: 1 } }, /'run.evaluation.evaluate' must be a function/],
    ['signal', { signal: {} }, /'run.signal' must be an AbortSignal/],
    ['parameters', { parameters: [['w', zeros]] }, /'run.parameters\[0\]' must be a \[name, Variable\] pair/],
  ])('refuses a bad %s with a typed error naming the field, before any step', async (_, change, message) => {
    const bad = { ...run(), ...change } as unknown as TrainingRun;
    expect(() => checkTrainingRun(bad)).toThrow(InvalidArgumentError);
    expect(() => checkTrainingRun(bad)).toThrow(message);
    await expect(runTrainingLoop(bad)).rejects.toThrow(message);
  });
});
