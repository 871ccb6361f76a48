import { describe, expect, it } from 'vitest';
import { CheckpointError } from './checkpoint-error.js';
import { optimizerStateFile, readOptimizerStateFile } from './optimizer-state-file.js';
import { parseTrainerState, type TrainerState } from './trainer-state.js';

const state: TrainerState = { format: 'attnkit-trainer-state', version: 1, step: 2, totalSteps: 10, epoch: 0, batchInEpoch: 2, seed: 42, batchSize: 4, loss: 'multiple-negatives-ranking', examples: 20, dataFingerprint: '0a1b2c3d', losses: [2.1, 1.9], learningRates: [0, 1e-5], evaluations: [] };

describe('trainer_state.json and optimizer.safetensors', () => {
  it('round-trip', () => {
    expect(parseTrainerState(JSON.parse(JSON.stringify(state)), 'run')).toEqual(state);
    const adam = { step: 2, learningRate: 1e-5, parameters: { 'pooler.dense.weight': { step: 2, expAvg: { shape: [2, 2], values: Float32Array.of(1, 2, 3, 4) }, expAvgSq: { shape: [2, 2], values: Float32Array.of(5, 6, 7, 8) } } } };
    expect(readOptimizerStateFile(optimizerStateFile(adam), 'run')).toEqual(adam);
  });

  it('a malformed file is a CheckpointError naming the folder, the file and the field', () => {
    expect(() => parseTrainerState({ ...state, step: -1 }, 'run/checkpoint-2')).toThrow(CheckpointError);
    expect(() => parseTrainerState({ ...state, step: -1 }, 'run/checkpoint-2')).toThrow(/run\/checkpoint-2\/trainer_state.json has step -1; expected an integer ≥ 0/);
    expect(() => parseTrainerState({ ...state, losses: [1] }, 'run')).toThrow(/losses that is not a list of step = 2 numbers/);
    expect(() => parseTrainerState({ ...state, format: 'other' }, 'run')).toThrow(/format "other"/);
    expect(() => parseTrainerState([], 'run')).toThrow(/is not a JSON object/);
    expect(() => readOptimizerStateFile(new Uint8Array(4), 'run')).toThrow(/run\/optimizer.safetensors cannot be read/);
  });
});
