import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

type Case = [name: string, fn: () => tf.Tensor];
const ones = (shape: number[], dtype: tf.DataType = 'float32'): tf.Tensor => tf.cast(tf.ones(shape), dtype);

/** Zero-size inputs that tfjs-backend-wasm 4.22 got wrong (divide by zero, stale memory, Aborted(), wrong fill or shape). */
const CASES: Case[] = [
  ['Transpose [0, 3, 4, 2] as splitHeads does', () => tf.transpose(ones([0, 3, 4, 2]), [0, 2, 1, 3])],
  ['Transpose [2, 0, 3] int32', () => tf.transpose(ones([2, 0, 3], 'int32'), [2, 0, 1])],
  ...(['sum', 'prod', 'mean', 'max', 'min'] as const).flatMap((op): Case[] => [
    [`${op} of [0, 3, 4] along axis 1 (divide by zero)`, () => tf[op](ones([0, 3, 4]), 1)],
    [`${op} of [0, 3, 4] along axis 0 (an empty axis: the fill)`, () => tf[op](ones([0, 3, 4]), 0)],
    [`${op} of [2, 3, 0] along -1, keepDims`, () => tf[op](ones([2, 3, 0]), -1, true)],
    [`${op} of int32 [2, 0] along 1`, () => tf[op](ones([2, 0], 'int32'), 1)],
    [`${op} of [0] to a scalar`, () => tf[op](ones([0]))],
  ]),
  ['sum of bool [2, 0] along 1 (int32)', () => tf.sum(ones([2, 0], 'bool'), 1)],
  ...(['all', 'any'] as const).map((op): Case => [`${op} of bool [2, 3, 0] along -1 (stale bytes before)`, () => tf[op](ones([2, 3, 0], 'bool'), -1)]),
  ...(['argMax', 'argMin'] as const).flatMap((op): Case[] => [
    [`${op} of [0, 3, 4] along 1`, () => tf[op](ones([0, 3, 4]), 1)],
    [`${op} of [2, 0, 4] along 1`, () => tf[op](ones([2, 0, 4]), 1)],
  ]),
  ['cumsum of [0, 3, 4] along 1', () => tf.cumsum(ones([0, 3, 4]), 1)],
  ['matMul [4, 3, 0] × [4, 0, 5] (stale memory before)', () => tf.matMul(ones([4, 3, 0]), ones([4, 0, 5]))],
  ['matMul [2, 2, 3, 0] × [2, 2, 0, 2], attention weights × empty values (Aborted() before)', () => tf.matMul(ones([2, 2, 3, 0]), ones([2, 2, 0, 2]))],
  ['matMul [3, 0] × [5, 0]ᵀ', () => tf.matMul(ones([3, 0]), ones([5, 0]), false, true)],
  ['matMul [0, 3, 4] × [0, 4, 5], transposed', () => tf.matMul(ones([0, 4, 3]), ones([0, 5, 4]), true, true)],
  ['matMul [2, 0, 4] × [2, 4, 5]', () => tf.matMul(ones([2, 0, 4]), ones([2, 4, 5]))],
  ['fused matMul [3, 0] × [0, 5] + bias, relu (0 before)', () => tf.fused.matMul({ a: ones([3, 0]), b: ones([0, 5]), bias: tf.tensor1d([-1, 2, -3, 4, 0.5]), activation: 'relu' })],
  ['fused matMul [2, 0, 3]ᵀ × [2, 5, 0]ᵀ + bias, leakyrelu', () => tf.fused.matMul({ a: ones([2, 0, 3]), b: ones([2, 5, 0]), transposeA: true, transposeB: true, bias: tf.tensor1d([-1, 2, -3, 4, 0.5]), activation: 'leakyrelu', leakyreluAlpha: 0.1 })],
  ['fused matMul [2, 3, 0] × [2, 0, 5] + bias [3, 5], elu', () => tf.fused.matMul({ a: ones([2, 3, 0]), b: ones([2, 0, 5]), bias: tf.fill([3, 5], -2), activation: 'elu' })],
  ['fused matMul [0, 3, 4] × [0, 5, 4]ᵀ + bias, relu (divide by zero before)', () => tf.fused.matMul({ a: ones([0, 3, 4]), b: ones([0, 5, 4]), transposeB: true, bias: ones([5]), activation: 'relu' })],
  ['gather along 1 of [0, 3, 4] (shape [1, 0, 2, 4] before)', () => tf.gather(ones([0, 3, 4]), tf.tensor1d([0, 2], 'int32'), 1)],
  ['gather of no ids from [2, 3, 0]', () => tf.gather(ones([2, 3, 0]), tf.tensor1d([], 'int32'), 0)],
];

async function read(fn: () => tf.Tensor): Promise<{ shape: number[]; dtype: string; values: number[] }> {
  const y = tf.tidy(fn);
  const result = { shape: y.shape, dtype: y.dtype, values: Array.from(await y.data()) };
  y.dispose();
  return result;
}

describe('wasm zero-size guard', () => {
  it('wraps the kernels it guards once, after the fills, and lists them in filledKernels', async () => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toEqual(['_FusedMatMul', 'UnsortedSegmentSum', 'BatchMatMul', 'Erf', 'Slice', 'SplitV', 'GatherV2', 'AttnkitGelu', 'AttnkitGeluTanh', 'AttnkitLayerNorm', 'Tile', 'AttnkitMaskedSoftmax', 'AttnkitRmsNorm', 'AttnkitSiluMul', 'AttnkitRotaryHeads', 'AttnkitAttentionRows', 'AttnkitKvAppend', 'AttnkitDecodeAttention', 'Identity', 'Transpose', 'Cumsum', 'Sum', 'Prod', 'Mean', 'Max', 'Min', 'All', 'Any', 'ArgMax', 'ArgMin']);
    expect((await useBackend('wasm')).filledKernels).toEqual(caps.filledKernels);
  });

  it.each(CASES)('%s: wasm equals cpu and leaks nothing', async (_, fn) => {
    await useBackend('cpu');
    const expected = await read(fn);
    await useBackend('wasm');
    const dataIds = (tf.engine().backend as unknown as { numDataIds(): number }).numDataIds();
    expect(await read(fn)).toEqual(expected); // NaN equals NaN here: Max of an empty row is NaN on both
    expect(await leaksOf(() => read(fn))).toEqual({ tensors: 0, bytes: 0 });
    expect((tf.engine().backend as unknown as { numDataIds(): number }).numDataIds()).toBe(dataIds); // no zero operands left on the heap
  });

  it('leaves non-empty inputs to the kernels, and the backend working after the product that aborted it', async () => {
    await useBackend('wasm');
    const big = tf.fill([4, 3, 5], 12345.678);
    big.dataSync();
    big.dispose(); // stale values where the next output may land
    expect(Array.from(await tf.matMul(ones([2, 2, 3, 0]), ones([2, 2, 0, 2])).data())).toEqual(new Array(24).fill(0));
    const product = tf.matMul(tf.tensor3d([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2]), tf.tensor3d([1, 0, 0, 1, 2, 0, 0, 2], [2, 2, 2]));
    expect(Array.from(await product.data())).toEqual([1, 2, 3, 4, 10, 12, 14, 16]);
    expect(Array.from(await tf.transpose(tf.tensor3d([1, 2, 3, 4, 5, 6], [1, 2, 3]), [2, 0, 1]).data())).toEqual([1, 4, 2, 5, 3, 6]);
    expect(Array.from(await tf.max(tf.tensor2d([1, 5, 3, 2], [2, 2]), 1).data())).toEqual([5, 3]);
    const broadcast = tf.matMul(ones([2, 1, 3, 0]), ones([1, 4, 0, 5])); // cpu returns fewer values than its shape [2, 4, 3, 5] holds here: compared with the maths
    expect([broadcast.shape, Array.from(await broadcast.data())]).toEqual([[2, 4, 3, 5], new Array(120).fill(0)]);
  });
});
