import { describe, expect, it } from 'vitest';
import type { StoredTensor } from '../read-checkpoint.js';
import { readSafetensors } from '../safetensors/read-safetensors.js';
import { writeSafetensors } from '../safetensors/write-safetensors.js';
import { int8WeightTensors, readInt8WeightTensors } from './int8-weight-tensors.js';

const weight = { values: Int8Array.of(127, -5, 0, 0, 0, 0), scales: Float32Array.of(0.01, 0), inFeatures: 3, outFeatures: 2 }; // [out, in] = [2, 3]; an all-zero row has scale 0

/** Stored tensors as readSafetensors(bytes, { keepInt8: true }) gives them. */
const stored = (tensors: Record<string, Omit<StoredTensor, 'dtype'> & { dtype?: StoredTensor['dtype'] }>): Map<string, StoredTensor> =>
  new Map(Object.entries(tensors).map(([name, t]) => [name, { dtype: t.dtype ?? (t.values instanceof Int8Array ? 'I8' : 'F32'), shape: t.shape, values: t.values }]));

describe('int8WeightTensors / readInt8WeightTensors', () => {
  it('store an Int8Weight as <linear>.weight I8 [out, in] and <linear>.weight_scale F32 [out, 1], and read it back as it was', () => {
    const tensors = int8WeightTensors('pooler.dense.weight', weight);
    expect(Object.keys(tensors)).toEqual(['pooler.dense.weight', 'pooler.dense.weight_scale']);
    expect(tensors['pooler.dense.weight_scale']!.shape).toEqual([2, 1]);
    const file = readSafetensors(writeSafetensors({ ...tensors, 'pooler.dense.bias': { shape: [2], values: new Float32Array(2) } }), { keepInt8: true });
    const { weights, scales, problems } = readInt8WeightTensors(file.tensors);
    expect(problems).toEqual([]);
    expect([...scales]).toEqual(['pooler.dense.weight_scale']);
    expect(weights.get('pooler.dense.weight')).toEqual(weight);
  });

  it('names every tensor that does not fit the layout', () => {
    const i8 = (shape: number[]) => ({ shape, values: new Int8Array(shape.reduce((a, b) => a * b, 1)).fill(1) });
    const f32 = (shape: number[], fill = 0.5) => ({ shape, values: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(fill) });
    const { weights, problems } = readInt8WeightTensors(stored({
      'a.weight': i8([2, 3]), // no scale
      'b.weight': i8([2, 3]), 'b.weight_scale': f32([2]), // [out], not [out, 1]
      'c.weight': i8([2, 3]), 'c.weight_scale': { dtype: 'I32', shape: [2, 1], values: Int32Array.of(1, 1) },
      'd.weight': i8([2, 3]), 'd.weight_scale': { shape: [2, 1], values: Float32Array.of(0.5, Number.NaN) },
      'e.weight': i8([2, 3]), 'e.weight_scale': { shape: [2, 1], values: Float32Array.of(-0.5, 0.5) },
      'f.weight': i8([2, 3]), 'f.weight_scale': { shape: [2, 1], values: Float32Array.of(0.5, 0) }, // zero scale for a row of ones
      'g.weight': f32([2, 3]), 'g.weight_scale': f32([2, 1]), // a float weight with a scale
      'h.weight_scale': f32([2, 1]), // a scale of nothing
      'LayerNorm.weight': i8([3]), // rank 1
      'ids': i8([4]),
      'ok.weight': i8([2, 3]), 'ok.weight_scale': f32([2, 1]),
    }));
    expect(problems).toEqual([
      "'a.weight' is I8 but 'a.weight_scale' is missing (F32 [2, 1], one scale per output row)",
      "'b.weight_scale' is F32 [2]; expected F32 [2, 1] (one scale per output row of 'b.weight')",
      "'c.weight_scale' is I32 [2, 1]; expected F32 [2, 1] (one scale per output row of 'c.weight')",
      "'d.weight_scale' row 1 is NaN; scales must be finite and positive (0 only for a row of zeros)",
      "'e.weight_scale' row 0 is -0.5; scales must be finite and positive (0 only for a row of zeros)",
      "'f.weight_scale' row 1 is 0; scales must be finite and positive (0 only for a row of zeros)",
      "'g.weight_scale' scales 'g.weight', which is F32, not I8",
      "'h.weight_scale' scales 'h.weight', which is absent",
      "'LayerNorm.weight' is I8 [3], not the weight of a Linear (<module>.weight [out, in])",
      "'ids' is I8 [4], not the weight of a Linear (<module>.weight [out, in])",
    ]);
    expect([...weights.keys()]).toEqual(['ok.weight']);
  });
});
