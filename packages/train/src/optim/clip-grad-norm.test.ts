import { dispose, ones, tensor, type NamedTensorMap, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend, withBackend } from '@attnkit/backends';
import { fixtureTensor, fixtureValues, leaksOf, thrown, type FixtureFile, type TensorSpec } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/training.json' with { type: 'json' };
import { beforeAll, describe, expect, it } from 'vitest';
import { clipGradNorm } from './clip-grad-norm.js';

const CASES = (fixtures as unknown as FixtureFile).cases;
const CLIPS = Object.keys(CASES).filter((name) => name.startsWith('clip '));

beforeAll(() => useBackend('cpu'));

/** The largest `|actual - expected| / max(|expected|, 1e-30)` over all values. */
function relativeError(actual: ArrayLike<number>, expected: readonly number[]): number {
  let worst = 0;
  expected.forEach((e, i) => (worst = Math.max(worst, Math.abs((actual[i] as number) - e) / Math.max(Math.abs(e), 1e-30))));
  return worst;
}

describe('clipGradNorm', () => {
  it.each(CLIPS.flatMap((name) => ['cpu', 'wasm'].map((backend) => [name, backend] as const)))('equals torch.nn.utils.clip_grad_norm_: %s on %s', async (name, backend) => {
    const { inputs, outputs } = CASES[name]!;
    await withBackend(backend, async () => {
      const keys = Object.keys(inputs).filter((key) => key.startsWith('gradient.')).map((key) => key.slice('gradient.'.length));
      const gradients = Object.fromEntries(keys.map((key) => [key, fixtureTensor(inputs[`gradient.${key}`] as TensorSpec)]));
      const { gradients: clipped, totalNorm } = clipGradNorm(gradients, Number(inputs['maxNorm']));
      expect(relativeError(await totalNorm.data(), fixtureValues(outputs['totalNorm']!))).toBeLessThan(1e-6);
      for (const key of keys) {
        expect(clipped[key]!.shape).toEqual(gradients[key]!.shape);
        expect(relativeError(await clipped[key]!.data(), fixtureValues(outputs[`clipped.${key}`]!)), key).toBeLessThan(1e-6);
      }
      expect(await leaksOf(() => { const r = clipGradNorm(gradients, 1); dispose([r.totalNorm, ...Object.values(r.gradients)]); })).toEqual({ tensors: 0, bytes: 0 });
      dispose([totalNorm, ...Object.values(clipped), ...Object.values(gradients)]);
    });
  });

  it('covers the fixture (above, below, equal, zero)', () => expect(CLIPS.length).toBe(4));

  it('takes no gradients: the norm is 0', async () => {
    const { gradients, totalNorm } = clipGradNorm({}, 1);
    expect(gradients).toEqual({});
    expect((await totalNorm.data())[0]).toBe(0);
    totalNorm.dispose();
  });

  it.each([
    [0, "clipGradNorm: 'maxNorm' must be a finite number > 0; received number 0."],
    [-1, "clipGradNorm: 'maxNorm' must be a finite number > 0; received number -1."],
    [NaN, "clipGradNorm: 'maxNorm' must be a finite number > 0; received number NaN."],
    [Infinity, "clipGradNorm: 'maxNorm' must be a finite number > 0; received number Infinity."],
    ['1', "clipGradNorm: 'maxNorm' must be a finite number > 0; received string '1'."],
  ])('refuses maxNorm %s with a typed error, leaking nothing', async (maxNorm, message) => {
    const gradients = { w: ones([2]) };
    const leaks = await leaksOf(() => {
      const error = thrown(() => clipGradNorm(gradients, maxNorm as number));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
    gradients.w.dispose();
  });

  it('refuses gradients that are not tensors by name', () => {
    const int = tensor([1], [1], 'int32');
    for (const [gradients, message] of [
      [[ones([1])], "clipGradNorm: 'gradients' must be an object of float32 gradient tensors by name (as variableGrads returns); received array [tensor]."],
      [{ w: int }, "clipGradNorm: 'gradients.w' must be a float32 tensor; received int32 tensor of rank 1 [1]."],
    ] as const) {
      const error = thrown(() => clipGradNorm(gradients as unknown as NamedTensorMap, 1));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
      if (Array.isArray(gradients)) (gradients as Tensor[]).forEach((t) => t.dispose());
    }
    int.dispose();
  });
});
