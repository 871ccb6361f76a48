import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import { paddingMaskFromIds } from './padding-mask-from-ids.js';

const fixture = (fixtures as FixtureFile).cases['padding from ids [3,4]']!;
beforeAll(() => useBackend('cpu'));

describe('paddingMaskFromIds', () => {
  it('equals PyTorch (attention_mask == 1)[:, None, None, :] on cpu and wasm, from a tensor and from arrays', async () => {
    const ids = fixtureTensor(specOf(fixture.inputs, 'attentionMask'));
    const nested = (await ids.array()) as number[][];
    const reference = { output: fixtureValues(specOf(fixture.outputs, 'mask')) };
    expect((await compareBackends(() => paddingMaskFromIds(ids as never), { backends: ['cpu', 'wasm'], tolerance: 0, reference })).ok).toBe(true);
    expect((await compareBackends(() => paddingMaskFromIds(nested), { backends: ['cpu'], tolerance: 0, reference })).ok).toBe(true);
    expect(await leaksOf(() => paddingMaskFromIds(ids as never).dispose())).toEqual({ tensors: 0, bytes: 0 });
    ids.dispose();
  });

  it.each([
    [() => paddingMaskFromIds([[1, 2]]), "paddingMaskFromIds: 'attentionMask[0][1]' must be 0 (padding) or 1 (token); received number 2."],
    [() => paddingMaskFromIds([[1, 1], [1]]), "paddingMaskFromIds: 'attentionMask[1]' must be a row of 2 values like row 0; received array [1]."],
    [() => paddingMaskFromIds([]), "paddingMaskFromIds: 'attentionMask' must be a non-empty [B, S] mask (B ≥ 1, S ≥ 1); received [0, 0]."],
    // eslint-disable-next-line no-sparse-arrays
    [() => paddingMaskFromIds([[1, , 1]] as never), "paddingMaskFromIds: 'attentionMask[0][1]' must be 0 (padding) or 1 (token); received undefined."],
    // eslint-disable-next-line no-sparse-arrays
    [() => paddingMaskFromIds([[1, 1], , [1, 0]] as never), "paddingMaskFromIds: 'attentionMask[1]' must be a row of 2 values like row 0; received undefined."],
  ])('rejects bad arrays %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('rejects a rank-3 tensor and a float value that is not 0/1', () => {
    const cube = tensor([[[1]]], [1, 1, 1], 'int32');
    expect(thrown(() => paddingMaskFromIds(cube as never)).message).toBe(
      "paddingMaskFromIds: 'attentionMask' must be an int32 or float32 or bool tensor of rank 2 [B, S]; received int32 tensor of rank 3 [1, 1, 1].",
    );
    const soft = tensor([[1, 0.5]]);
    expect(thrown(() => paddingMaskFromIds(soft as never)).message).toBe(
      "paddingMaskFromIds: 'attentionMask[0][1]' must be 0 (padding) or 1 (token); received number 0.5.",
    );
    cube.dispose();
    soft.dispose();
  });

  it('takes typed-array rows, and a long row without spreading it', async () => {
    const typed = paddingMaskFromIds([Int32Array.of(1, 0), Uint8Array.of(1, 1)]);
    expect(Array.from(await typed.data())).toEqual([1, 0, 1, 1]);
    const long = paddingMaskFromIds([new Int32Array(300_000).fill(1)]);
    expect(long.shape).toEqual([1, 1, 1, 300_000]);
    [typed, long].forEach((t) => t.dispose());
  });
});
