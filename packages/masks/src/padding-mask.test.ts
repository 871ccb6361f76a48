import { tensor1d, zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import { paddingMask } from './padding-mask.js';

const { cases } = fixtures as FixtureFile;
beforeAll(() => useBackend('cpu'));

describe('paddingMask', () => {
  it.each(['padding lengths [4,2,0,3] S=4', 'padding lengths [1,5] S=5'])('equals PyTorch arange(S) < lengths on cpu and wasm: %s', async (name) => {
    const { inputs, outputs } = cases[name]!;
    const lengths = inputs['lengths'] as number[];
    const report = await compareBackends(() => paddingMask(lengths, inputs['keyLength'] as number), {
      backends: ['cpu', 'wasm'], tolerance: 0, reference: { output: fixtureValues(specOf(outputs, 'mask')) },
    });
    expect(report.ok).toBe(true);
    const mask = paddingMask(lengths, inputs['keyLength'] as number);
    expect([mask.dtype, mask.shape]).toEqual(['bool', specOf(outputs, 'mask').shape]);
    mask.dispose();
  });

  it('accepts an int32 tensor of lengths', async () => {
    const lengths = tensor1d([2, 0], 'int32');
    const mask = paddingMask(lengths, 3);
    expect(Array.from(await mask.data())).toEqual([1, 1, 0, 0, 0, 0]);
    lengths.dispose();
    mask.dispose();
  });

  it('accepts typed arrays, a view at an offset of a larger buffer included', async () => {
    const view = new Int32Array(new ArrayBuffer(16), 8, 2);
    view.set([3, 1]);
    const fromView = paddingMask(view, 3);
    expect(Array.from(await fromView.data())).toEqual([1, 1, 1, 1, 0, 0]);
    const fromFloats = paddingMask(Float64Array.of(0, 2), 2);
    expect(Array.from(await fromFloats.data())).toEqual([0, 0, 1, 1]);
    [fromView, fromFloats].forEach((t) => t.dispose());
  });

  it('reads every length exactly once: a hole in a sparse array is refused, and a proxy cannot change a value after the check', async () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(thrown(() => paddingMask([1, , 2] as never, 3)).message).toBe("paddingMask: 'lengths[1]' must be an integer from 0 to keyLength = 3; received undefined.");
    let reads = 0;
    const shifting = new Proxy([1, 1], { get: (target, key, receiver) => (key === '0' ? (reads++ === 0 ? 1 : 99) : Reflect.get(target, key, receiver)) });
    const mask = paddingMask(shifting, 3);
    expect(Array.from(await mask.data())).toEqual([1, 0, 0, 1, 0, 0]); // the value that was checked is the value used
    expect(reads).toBe(1);
    mask.dispose();
  });

  it('refuses a mask past the memory budget with a typed error, before allocating', () => {
    expect(thrown(() => paddingMask([0], 2 ** 33)).message).toMatch(/^paddingMask: the values of the mask \[1, 1, 1, 8589934592\] float32 need 32\.0 GiB, more than the 2\.0 GiB cpu allows/);
  });

  it('leaks nothing', async () => {
    const lengths = tensor1d([2, 0], 'int32');
    expect(await leaksOf(() => paddingMask(lengths, 3).dispose())).toEqual({ tensors: 0, bytes: 0 });
    lengths.dispose();
  });

  it.each([
    [() => paddingMask([1, -1], 3), "paddingMask: 'lengths[1]' must be an integer from 0 to keyLength = 3; received number -1."],
    [() => paddingMask([4], 3), "paddingMask: 'lengths[0]' must be an integer from 0 to keyLength = 3; received number 4. Pad the keys to the longest sequence, or truncate that sequence."],
    [() => paddingMask([1.5], 3), "paddingMask: 'lengths[0]' must be an integer from 0 to keyLength = 3; received number 1.5."],
    [() => paddingMask([], 3), "paddingMask: 'lengths' must be at least one length (B ≥ 1); received an empty list."],
    [() => paddingMask([1], 0), "paddingMask: 'keyLength' must be an integer ≥ 1; received number 0."],
    [() => paddingMask([1], 2.5), "paddingMask: 'keyLength' must be an integer ≥ 1; received number 2.5."],
    [() => paddingMask(zeros([2]) as never, 3), "paddingMask: 'lengths' must be an int32 tensor of rank 1 [B]; received float32 tensor of rank 1 [2]."],
    [() => paddingMask(zeros([2, 1], 'int32') as never, 3), "paddingMask: 'lengths' must be an int32 tensor of rank 1 [B]; received int32 tensor of rank 2 [2, 1]."],
    [() => paddingMask({ length: 1, 0: 1 } as never, 3), "paddingMask: 'lengths' must be an int32 tensor [B], or an array or typed array of integers; received Object."],
    [() => paddingMask(new DataView(new ArrayBuffer(4)) as never, 3), "paddingMask: 'lengths' must be an int32 tensor [B], or an array or typed array of integers; received DataView."],
  ])('rejects bad input %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

});

describe('paddingMask with a circular array', () => {
  it('gives a typed error instead of a JSON TypeError', () => {
    const c: unknown[] = [];
    c.push(c);
    const error = thrown(() => paddingMask(c as never, 3));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^paddingMask: 'lengths\[0\]' must be .*; received array \[\[circular\]\]\./);
  });
});
