import { getBackend, memory, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { safely, shownAs } from '../catalogue/catalogue-case.js';
import { runCase } from './run-case.js';

afterAll(() => useBackend('cpu'));

describe('runCase', () => {
  it('runs the case under the backend given, and labels it by shownAs where the case sets one', async () => {
    const seen = safely('nn', 'which backend', 'the one set', () => getBackend(), (v) => v === 'wasm');
    expect(await runCase(seen, 'wasm')).toEqual({ case: seen, backend: 'wasm', outcome: 'documented result', detail: '', leaked: 0 });
    const [compared] = shownAs('cpu+wasm', [seen]);
    expect((await runCase(compared!, 'wasm')).backend).toBe('cpu+wasm');
  });

  it("counts the tensors a case leaves behind, and ends a case that outlives the watchdog as 'hang'", async () => {
    const kept: Tensor[] = [];
    const leaky = safely('nn', 'leaks one', 'a shape', () => kept.push(zeros([2])), () => true);
    const run = await runCase(leaky, 'cpu');
    kept.forEach((t) => t.dispose());
    expect([run.outcome, run.leaked]).toEqual(['documented result', 1]);
    const before = memory().numTensors;
    const hanging = safely('nn', 'never ends', 'nothing', () => new Promise(() => undefined), () => true);
    expect((await runCase(hanging, 'cpu', 50)).outcome).toBe('hang');
    expect(memory().numTensors).toBe(before);
  });
});
