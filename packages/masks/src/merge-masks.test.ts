import { ones, tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import { mergeMasks } from './merge-masks.js';

const fixture = (fixtures as FixtureFile).cases['merge padding [2,1,1,3] & causal [1,1,3,3]']!;
beforeAll(() => useBackend('cpu'));

describe('mergeMasks', () => {
  it('ANDs with broadcasting, equal to PyTorch padding & causal on cpu and wasm', async () => {
    const padding = fixtureTensor(specOf(fixture.inputs, 'padding'));
    const causal = fixtureTensor(specOf(fixture.inputs, 'causal'));
    const report = await compareBackends(() => mergeMasks(undefined, padding, causal)!, {
      backends: ['cpu', 'wasm'], tolerance: 0, reference: { output: fixtureValues(specOf(fixture.outputs, 'mask')) },
    });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs[0]?.shape).toEqual([2, 1, 3, 3]);
    expect(await leaksOf(() => mergeMasks(padding, causal)?.dispose())).toEqual({ tensors: 0, bytes: 0 });
    padding.dispose();
    causal.dispose();
  });

  it('returns undefined for no masks and a copy (not the argument) for one', async () => {
    expect(mergeMasks()).toBeUndefined();
    expect(mergeMasks(undefined, undefined)).toBeUndefined();
    const only = ones([1, 2], 'bool');
    const merged = mergeMasks(only)!;
    expect(merged).not.toBe(only);
    only.dispose();
    expect(Array.from(await merged.data())).toEqual([1, 1]);
    merged.dispose();
  });

  it('rejects float masks and shapes that do not broadcast', () => {
    const a = ones([2, 1, 1, 3], 'bool');
    const b = ones([3, 1, 1, 3], 'bool');
    const f = tensor([[0, 1]]);
    const float = thrown(() => mergeMasks(a, f));
    expect(float).toBeInstanceOf(InvalidArgumentError);
    expect(float.message).toBe(
      "mergeMasks: 'masks[1]' must be a bool tensor; received float32 tensor of rank 2 [1, 2]. attnkit masks are bool, true = may attend. Convert PyTorch bool masks (True = blocked) with fromTorchBoolMask(), additive 0/-inf masks with fromAdditiveMask(), 0/1 attention_mask ids with paddingMaskFromIds().",
    );
    expect(thrown(() => mergeMasks(a, b)).message).toBe(
      "mergeMasks: 'masks' must be shapes that broadcast (each axis equal or 1, aligned from the last); received [2, 1, 1, 3] and [3, 1, 1, 3], which differ at axis -4 (2 vs 3).",
    );
    [a, b, f].forEach((t) => t.dispose());
  });
});
