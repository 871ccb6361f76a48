import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { LayerNorm, Linear, Module } from '@attnkit/nn';
import { resolveTrainingOptions } from './training-options.js';
import { noDecayOf, runSchedule } from './run-schedule.js';

beforeAll(() => useBackend('cpu'));

describe('runSchedule', () => {
  it('plans each epoch once, counts the steps and the warm-up, and passes the settings through', () => {
    const o = resolveTrainingOptions({ loss: 'cosine-similarity', batchSize: 4, epochs: 2, warmupRatio: 0.25, checkpoint: { folder: '/tmp/x', source: '/tmp/y', every: 3 } }, 64);
    const schedule = runSchedule(o, Array.from({ length: 10 }, (_, i) => i + 2));
    expect(schedule.plan(0)).toBe(schedule.plan(0)); // made once
    expect(schedule.plan(0).flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(schedule.totalSteps).toBe(schedule.plan(0).length + schedule.plan(1).length);
    expect([schedule.warmupSteps, schedule.saveEvery, schedule.learningRate, schedule.seed]).toEqual([Math.ceil(0.25 * schedule.totalSteps), 3, 2e-5, 42]);
    expect(runSchedule(resolveTrainingOptions({ loss: 'cosine-similarity', maxSteps: 7, warmupSteps: 2 }, 64), [3, 4]).totalSteps).toBe(7);
  });
});

describe('noDecayOf', () => {
  it('exempts biases, norms by name and every LayerNorm parameter under its prefix', () => {
    class Net extends Module {
      constructor() {
        super();
        this.registerModule('proj', new Linear(2, 2));
        this.registerModule('ln', new LayerNorm(2));
      }
    }
    const net = new Net();
    const noDecay = noDecayOf([['dense.0.', net]]);
    expect(['dense.0.proj.weight', 'dense.0.proj.bias', 'dense.0.ln.weight', 'dense.0.ln.bias'].map(noDecay)).toEqual([false, true, true, true]);
    net.dispose();
  });
});
