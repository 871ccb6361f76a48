import { add, fused, randomNormal, reshape, sum, variableGrads, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { f32Kernels } from '@attnkit/kernels';
import { leaksOf } from '@attnkit/test-utils';
import { gelu } from '../ops/gelu.js';
import { layerNorm } from '../ops/layer-norm.js';
import { onF32Kernels } from '../ops/linear.js';
import { Linear } from './linear.js';
import { checkLinearFusion } from './linear-fusion.js';

const EPS = 1e-12;

/** What Linear.forward(x, options) must equal: the ops, unfused, on the backend's own matMul. */
function unfused(linear: Linear, x: Tensor, activation: 'gelu' | undefined, norm?: { residual: Tensor; gamma: Tensor; beta: Tensor }): Tensor {
  const rows = x.size / linear.inFeatures;
  const y = reshape(fused.matMul({ a: reshape(x, [rows, linear.inFeatures]), b: linear.weight, transposeB: true, bias: linear.bias as Tensor }), [...x.shape.slice(0, -1), linear.outFeatures]); // as the linear op: [N, in] x [out, in]ᵀ
  const activated = activation === 'gelu' ? gelu(y) : y;
  return norm === undefined ? activated : layerNorm(add(activated, norm.residual), norm.gamma, norm.beta, EPS);
}

describe('Linear.forward with a fusion', () => {
  afterAll(() => useBackend('cpu'));

  it("runs on attnkit's float32 kernel on wasm outside gradient recording, and on tfjs ops elsewhere", async () => {
    await useBackend('wasm');
    expect(onF32Kernels()).toBe(f32Kernels().preferred !== undefined);
    const x = randomNormal([2, 3]).variable();
    variableGrads(() => {
      expect(onF32Kernels()).toBe(false); // a gradient is being recorded
      return sum(x) as never;
    }, [x]);
    await useBackend('cpu');
    expect(onF32Kernels()).toBe(false);
  });

  // Node runs the 'simd' kernel: the numbers of tfjs-wasm's matMul and of the GELU and LayerNorm kernels, bit for bit
  it.each(['wasm', 'cpu'] as const)('on %s equals the unfused ops bit for bit: GELU, residual LayerNorm, both', async (backend) => {
    await useBackend(backend);
    const linear = new Linear(40, 45, { seed: 1 });
    const x = randomNormal([3, 5, 40], 0, 1, 'float32', 2);
    const norm = { residual: randomNormal([3, 5, 45], 0, 2, 'float32', 3), gamma: randomNormal([45], 1, 0.2, 'float32', 4), beta: randomNormal([45], 0, 0.2, 'float32', 5) };
    const flat = (t: Tensor) => Array.from(t.dataSync());
    expect(flat(linear.forward(x, { activation: 'gelu' }))).toEqual(flat(unfused(linear, x, 'gelu')));
    expect(flat(linear.forward(x, { residualLayerNorm: { ...norm, epsilon: EPS } }))).toEqual(flat(unfused(linear, x, undefined, norm)));
    const both = linear.forward(x, { activation: 'gelu', residualLayerNorm: { ...norm, epsilon: EPS } });
    expect(both.shape).toEqual([3, 5, 45]);
    expect(flat(both)).toEqual(flat(unfused(linear, x, 'gelu', norm)));
    expect(flat(linear.forward(x))).toEqual(flat(unfused(linear, x, undefined)));
  });

  it('keeps training on wasm: under a gradient tape the ops run and the gradients reach the weight', async () => {
    await useBackend('wasm');
    const linear = new Linear(6, 4, { seed: 7 });
    const x = randomNormal([5, 6], 0, 1, 'float32', 8);
    const { value, grads } = variableGrads(() => sum(linear.forward(x, { activation: 'gelu' })) as never, [linear.weight]);
    expect(grads[linear.weight.name]!.shape).toEqual([4, 6]);
    expect(Math.max(...Array.from(grads[linear.weight.name]!.dataSync(), Math.abs))).toBeGreaterThan(0);
    expect(value.dataSync()[0]).toBeCloseTo(sum(linear.forward(x, { activation: 'gelu' })).dataSync()[0]!, 4);
  });

  it.each(['wasm', 'cpu'] as const)('leaks nothing on %s', async (backend) => {
    await useBackend(backend);
    const linear = new Linear(8, 8, { seed: 9 });
    const x = randomNormal([4, 8]);
    const norm = { residual: randomNormal([4, 8]), gamma: randomNormal([8]), beta: randomNormal([8]), epsilon: 1e-5 };
    expect(await leaksOf(() => linear.forward(x, { activation: 'gelu', residualLayerNorm: norm }).dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it.each(['wasm', 'cpu'] as const)('refuses bad options on %s with InvalidArgumentError naming them, leaking nothing', async (backend) => {
    await useBackend(backend);
    const linear = new Linear(8, 3, { seed: 10 });
    const x = randomNormal([2, 8]);
    const wrong = { residual: randomNormal([2, 4]), gamma: randomNormal([3]), beta: randomNormal([3]), epsilon: 1e-5 };
    const leaks = await leaksOf(() => {
      expect(() => linear.forward(x, { activation: 'relu' as never })).toThrow(/Linear.forward: 'activation' must be 'gelu' \(or absent\); received string 'relu'/);
      expect(() => linear.forward(x, { act: 'gelu' } as never)).toThrow(/unknown key 'act'/);
      expect(() => linear.forward(x, null as never)).toThrow(InvalidArgumentError);
      expect(() => linear.forward(x, { residualLayerNorm: wrong })).toThrow(/residualLayerNorm.residual' must be a float32 tensor of the output's shape \[2, 3\]; received \[2, 4\]/);
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
  });

  it('checkLinearFusion returns the options it accepts', () => {
    const options = { activation: 'gelu' as const };
    expect(checkLinearFusion(options, 'test')).toBe(options);
    expect(checkLinearFusion({}, 'test')).toEqual({});
  });
});
