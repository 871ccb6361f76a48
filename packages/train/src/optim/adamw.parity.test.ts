import { afterAll, describe, expect, it } from 'vitest';
import { dispose, tensor, variable, type NamedTensorMap, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { availableBackends, withBackend } from '@attnkit/backends';
import { fixtureTensor, fixtureValues, type FixtureCase, type FixtureFile, type TensorSpec } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/training.json' with { type: 'json' };
import { AdamW, type AdamWState } from './adamw.js';
import { clipGradNorm } from './clip-grad-norm.js';
import { linearScheduleWithWarmup } from './linear-schedule-with-warmup.js';

const BACKENDS = await availableBackends();
/** Max error relative to the scale of each reference value (float32 against float64 torch). */
const TOLERANCE = 1e-5;
const CASES = (fixtures as unknown as FixtureFile).cases;
const TRAJECTORIES = Object.keys(CASES).filter((name) => name.startsWith('adamw '));
const NAMES = ['dense.weight', 'dense.bias', 'LayerNorm.weight'];
const worst: Record<string, { abs: number; rel: number }> = {};

afterAll(() => console.log(`\nAdamW trajectories vs float64 torch.optim.AdamW (max abs / max scaled difference):\n${Object.entries(worst).map(([k, v]) => `| ${k} | ${v.abs.toExponential(1)} / ${v.rel.toExponential(1)} |`).join('\n')}\n`));

/** `max |a - e|` and that over `max |e|`, recorded under `key`. */
function compare(key: string, actual: ArrayLike<number>, expected: readonly number[]): number {
  let abs = 0;
  let scale = 0;
  expected.forEach((e, i) => ((abs = Math.max(abs, Math.abs((actual[i] as number) - e))), (scale = Math.max(scale, Math.abs(e)))));
  const rel = scale === 0 ? abs : abs / scale;
  worst[key] = { abs: Math.max(worst[key]?.abs ?? 0, abs), rel: Math.max(worst[key]?.rel ?? 0, rel) };
  return rel;
}

/** Row `step` of a `[steps, ...]` fixture stack. */
function row(spec: TensorSpec, step: number): number[] {
  const size = spec.shape.slice(1).reduce((n, d) => n * d, 1);
  return fixtureValues(spec).slice(step * size, (step + 1) * size);
}

/** Runs the case's steps from `from` to `to` on `optimizer`, checking the learning rate, the norm and the parameters after each step. */
async function run(spec: FixtureCase, label: string, optimizer: AdamW, parameters: Record<string, Variable>, from: number, to: number): Promise<void> {
  const { inputs, outputs } = spec;
  const baseRate = Number(inputs['learningRate']);
  const schedule = inputs['schedule'] === null ? undefined : linearScheduleWithWarmup(inputs['schedule'] as never);
  const skip = new Set((inputs['skip'] as unknown as Array<[number, string]>).map(([s, n]) => `${s} ${n}`));
  for (let step = from; step < to; step++) {
    optimizer.learningRate = baseRate * (schedule?.(optimizer.iterations) ?? 1);
    expect(optimizer.learningRate).toBeCloseTo(fixtureValues(outputs['lr']!)[step]!, 12);
    let gradients: NamedTensorMap = {};
    for (const name of NAMES) {
      if (skip.has(`${step} ${name}`)) continue;
      const stack = inputs[`gradients.${name}`] as TensorSpec;
      gradients[parameters[name]!.name] = tensor(row(stack, step), stack.shape.slice(1) as number[]);
    }
    let totalNorm: Tensor | undefined;
    if (inputs['maxNorm'] !== null) {
      const clipped = clipGradNorm(gradients, Number(inputs['maxNorm']));
      dispose(Object.values(gradients));
      ({ gradients, totalNorm } = clipped);
      expect(compare(`${label} totalNorm`, await totalNorm.data(), [fixtureValues(outputs['totalNorm']!)[step]!])).toBeLessThanOrEqual(TOLERANCE);
    }
    optimizer.applyGradients(gradients);
    dispose([...Object.values(gradients), ...(totalNorm === undefined ? [] : [totalNorm])]);
    for (const name of NAMES) {
      expect(compare(`${label} ${name}`, await parameters[name]!.data(), row(outputs[`trajectory.${name}`]!, step)), `${label} step ${step} ${name}`).toBeLessThanOrEqual(TOLERANCE);
    }
  }
}

function setUp(spec: FixtureCase, state?: AdamWState): { optimizer: AdamW; parameters: Record<string, Variable> } {
  const parameters = Object.fromEntries(NAMES.map((name) => [name, variable(fixtureTensor(spec.inputs[`initial.${name}`] as TensorSpec))]));
  const hfGroups = spec.inputs['hfGroups'] === true;
  const optimizer = new AdamW(Object.entries(parameters), { learningRate: Number(spec.inputs['learningRate']), weightDecay: Number(spec.inputs['weightDecay']), ...(hfGroups ? {} : { noDecay: () => false }) });
  if (state !== undefined) optimizer.importState(state);
  return { optimizer, parameters };
}

describe('AdamW equals torch.optim.AdamW (float64) step by step', () => {
  it('covers both trajectories of the fixture', () => expect(TRAJECTORIES.length).toBe(2));

  it.each(TRAJECTORIES.flatMap((name) => BACKENDS.map((backend) => [name, backend] as const)))('%s on %s', async (name, backend) => {
    const spec = CASES[name]!;
    await withBackend(backend, async () => {
      const { optimizer, parameters } = setUp(spec);
      if (spec.inputs['hfGroups'] === true) expect(optimizer.parameterGroups()).toEqual([{ names: ['dense.weight'], weightDecay: 0.1 }, { names: ['dense.bias', 'LayerNorm.weight'], weightDecay: 0 }]);
      const steps = Number(spec.inputs['steps']);
      await run(spec, `${backend} ${name.split(' (')[0]!.split(',')[0]}`, optimizer, parameters, 0, steps);
      const state = await optimizer.exportState();
      expect(state.step).toBe(steps);
      for (const key of NAMES) {
        expect(state.parameters[key]!.step).toBe(fixtureValues(spec.outputs[`state.${key}.step`]!)[0]);
        expect(compare(`${backend} state ${key}.exp_avg`, state.parameters[key]!.expAvg.values, fixtureValues(spec.outputs[`state.${key}.exp_avg`]!))).toBeLessThanOrEqual(TOLERANCE);
        expect(compare(`${backend} state ${key}.exp_avg_sq`, state.parameters[key]!.expAvgSq.values, fixtureValues(spec.outputs[`state.${key}.exp_avg_sq`]!))).toBeLessThanOrEqual(TOLERANCE);
      }
      optimizer.dispose();
      dispose(Object.values(parameters));
    });
  });

  it.each(BACKENDS)('resumes from exported state as if never interrupted (Trainer trajectory, %s)', async (backend) => {
    const name = TRAJECTORIES.find((n) => n.includes('Trainer'))!;
    const spec = CASES[name]!;
    await withBackend(backend, async () => {
      const first = setUp(spec);
      await run(spec, `${backend} resumed`, first.optimizer, first.parameters, 0, 4);
      const state = await first.optimizer.exportState();
      const values = Object.fromEntries(await Promise.all(NAMES.map(async (n) => [n, await first.parameters[n]!.data()] as const)));
      first.optimizer.dispose();
      dispose(Object.values(first.parameters));
      const second = setUp(spec, state);
      for (const n of NAMES) {
        const saved = tensor(values[n]!, second.parameters[n]!.shape);
        second.parameters[n]!.assign(saved);
        saved.dispose();
      }
      expect(second.optimizer.iterations).toBe(4);
      await run(spec, `${backend} resumed`, second.optimizer, second.parameters, 4, Number(spec.inputs['steps']));
      second.optimizer.dispose();
      dispose(Object.values(second.parameters));
    });
  });
});
