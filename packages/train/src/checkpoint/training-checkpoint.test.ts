import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tidy, variable, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { AdamW } from '../optim/adamw.js';
import type { TrainerState } from './trainer-state.js';
import { saveTrainingCheckpoint } from './training-checkpoint.js';

const STATE: TrainerState = { format: 'attnkit-trainer-state', version: 1, step: 1, totalSteps: 2, epoch: 0, batchInEpoch: 1, seed: 1, batchSize: 2, loss: 'multiple-negatives-ranking', examples: 2, dataFingerprint: 'ab', losses: [1], learningRates: [0.1], evaluations: [] };
beforeAll(() => useBackend('cpu'));

describe('saveTrainingCheckpoint input checks', () => {
  it('refuses a keep that is no integer ≥ 1, an optimiser that is no AdamW and a state that is no TrainerState, before reading the model', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'attnkit-training-checkpoint-'));
    const w = tidy(() => variable(zeros([1]), true, 'training-checkpoint-test-w'));
    const optimizer = new AdamW([['w', w]]);
    const checkpoint = { model: undefined as never, source: './model', optimizer, state: STATE };
    await expect(saveTrainingCheckpoint(folder, checkpoint, Number.NaN)).rejects.toThrow("trainSentenceEncoder: 'keep' must be an integer ≥ 1; received number NaN.");
    await expect(saveTrainingCheckpoint(folder, { ...checkpoint, optimizer: null as never })).rejects.toThrow(InvalidArgumentError); // tfjs' Optimizer instanceof reads .minimize of null
    await expect(saveTrainingCheckpoint(folder, { ...checkpoint, optimizer: {} as never })).rejects.toThrow(/'checkpoint.optimizer' must be the AdamW optimiser of the run; received Object/);
    await expect(saveTrainingCheckpoint(folder, { ...checkpoint, state: {} as never })).rejects.toThrow(/'checkpoint.state' must be a TrainerState/);
    await expect(saveTrainingCheckpoint(folder, { ...checkpoint, state: 'x' as never })).rejects.toThrow(/'checkpoint.state' must be the run's TrainerState/);
    optimizer.dispose();
    w.dispose();
  });
});
