import { add, cast, randomNormal, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { GatedFeedForward } from './gated-feed-forward.js';
import { GemmaRMSNorm } from './gemma-rms-norm.js';
import { int8InputNorm } from './input-norm-fusion.js';
import { Int8Linear } from './int8-linear.js';
import { LayerNorm } from './layer-norm.js';
import { Linear } from './linear.js';
import { quantizeLinearLayers } from './quantize-linear-layers.js';
import { RMSNorm } from './rms-norm.js';
import { initialValues } from './init.js';

afterAll(() => useBackend('cpu'));

/** A norm with weights other than ones (and a bias other than zeros), so that a norm left out or applied twice shows. */
function norms(width: number): { rms: RMSNorm; gemma: GemmaRMSNorm; layer: LayerNorm } {
  const rms = new RMSNorm(width, { eps: 1e-5 });
  const gemma = new GemmaRMSNorm(width, { eps: 1e-6 });
  const layer = new LayerNorm(width, { eps: 1e-5 });
  for (const [i, p] of [rms.weight, gemma.weight, layer.weight!, layer.bias!].entries()) p.assign(add(initialValues([width], { uniform: 0.5 }, 10 + i, 'test'), i === 3 ? 0 : 1));
  return { rms, gemma, layer };
}

describe('int8InputNorm', () => {
  it("gives the product's inputNorm for an RMSNorm and an affine LayerNorm where their own forward runs the wasm kernel, and nothing elsewhere", async () => {
    await useBackend('wasm');
    const { rms, gemma, layer } = norms(8);
    const bare = new LayerNorm(8, { elementwiseAffine: false });
    const x = randomNormal([2, 8]);
    expect(int8InputNorm(rms, x)).toEqual({ kind: 'rmsNorm', weight: rms.weight, epsilon: 1e-5 });
    expect(int8InputNorm(layer, x)).toEqual({ kind: 'layerNorm', weight: layer.weight, bias: layer.bias, epsilon: 1e-5 });
    expect(int8InputNorm(gemma, x)).toBeUndefined(); // 1 + weight: not the kernel's arithmetic
    expect(int8InputNorm(bare, x)).toBeUndefined();
    expect(int8InputNorm(undefined, x)).toBeUndefined();
    await useBackend('cpu');
    const onCpu = randomNormal([2, 8]);
    expect(int8InputNorm(rms, onCpu)).toBeUndefined(); // cpu composes the norm from ops: other roundings than the kernel's
    [rms, gemma, layer, bare].forEach((m) => m.dispose());
  });
});

describe.each(['cpu', 'wasm'] as const)('a block with inputNorm and residual (%s)', (backend) => {
  it('GatedFeedForward: residual + mlp(norm(x)) bit for bit the ops, float and int8, every norm kind, leaking nothing', async () => {
    await useBackend(backend);
    const { rms, gemma, layer } = norms(16);
    const x = randomNormal([2, 3, 16], 0, 2, 'float32', 4);
    const residual = randomNormal([2, 3, 16], 0, 1, 'float32', 5);
    for (const quantize of [false, true]) {
      const mlp = new GatedFeedForward({ embedDim: 16, feedForwardDim: 24, seed: 7 });
      if (quantize) quantizeLinearLayers(mlp);
      for (const norm of [rms, gemma, layer]) {
        const fused = mlp.forward(x, { inputNorm: norm, residual });
        const composed = add(residual, mlp.forward(norm.forward(x)));
        expect(Array.from(fused.dataSync()), `${quantize ? 'int8' : 'float'} ${norm.constructor.name}`).toEqual(Array.from(composed.dataSync()));
        expect(Array.from(mlp.forward(x, { inputNorm: norm }).dataSync())).toEqual(Array.from(mlp.forward(norm.forward(x)).dataSync()));
        expect(await leaksOf(() => mlp.forward(x, { inputNorm: norm, residual }).dispose())).toEqual({ tensors: 0, bytes: 0 });
      }
      mlp.dispose();
    }
    [rms, gemma, layer].forEach((m) => m.dispose());
  });

  it('Linear and Int8Linear: forward(x, { residual }) is add(forward(x), residual) bit for bit', async () => {
    await useBackend(backend);
    const dense = new Linear(12, 10, { seed: 3 });
    const int8 = Int8Linear.fromLinear(dense);
    const x = randomNormal([4, 12], 0, 1, 'float32', 6);
    const residual = randomNormal([4, 10], 0, 1, 'float32', 7);
    for (const layer of [dense, int8]) {
      expect(Array.from(layer.forward(x, { residual }).dataSync())).toEqual(Array.from(add(layer.forward(x), residual).dataSync()));
      expect(Array.from(layer.forward(x, { activation: 'gelu', residual }).dataSync())).toEqual(Array.from(add(layer.forward(x, { activation: 'gelu' }), residual).dataSync()));
      expect(await leaksOf(() => layer.forward(x, { residual }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    }
    [dense, int8].forEach((m) => m.dispose());
  });

  it('refuses a bad inputNorm or residual with typed errors naming them, leaking nothing', async () => {
    await useBackend(backend);
    const mlp = new GatedFeedForward({ embedDim: 8, feedForwardDim: 12 });
    const int8 = new GatedFeedForward({ embedDim: 8, feedForwardDim: 12 });
    quantizeLinearLayers(int8);
    const dense = new Linear(8, 6);
    const x = randomNormal([2, 8]);
    const [wide, ints, residual6, gamma] = [randomNormal([2, 9]), cast(randomNormal([2, 8]), 'int32'), randomNormal([2, 6]), randomNormal([8])];
    const leaks = await leaksOf(() => {
      for (const block of [mlp, int8]) {
        expect(thrown(() => block.forward(x, { inputNorm: gamma as never })).message).toMatch(/^GatedFeedForward\.forward: 'inputNorm' must be a norm module with forward\(x\)/);
        expect(thrown(() => block.forward(x, { norm: gamma } as never)).message).toMatch(/^GatedFeedForward\.forward: 'options' must be an object with only the keys inputNorm, residual; received the unknown key 'norm'/);
        expect(thrown(() => block.forward(x, { residual: wide }))).toBeInstanceOf(InvalidArgumentError);
        expect(thrown(() => block.forward(x, { residual: wide })).message).toMatch(/'residual' must be a float32 tensor of the output's shape \[2, 8\]; received \[2, 9\]/);
        expect(thrown(() => block.forward(x, { residual: ints })).message).toMatch(/'residual' must be a float32 tensor/);
      }
      expect(thrown(() => dense.forward(x, { residual: x })).message).toBe("Linear.forward: 'residual' must be a float32 tensor of the output's shape [2, 6]; received [2, 8].");
      expect(thrown(() => dense.forward(x, { residual: residual6, residualLayerNorm: { residual: residual6, gamma: residual6, beta: residual6, epsilon: 1e-5 } })).message).toMatch(/^Linear\.forward: 'residual' must be absent with residualLayerNorm/);
    });
    expect(leaks).toEqual({ tensors: 0, bytes: 0 });
    [mlp, int8, dense].forEach((m) => m.dispose());
    [x, wide, ints, residual6, gamma].forEach((t: Tensor) => t.dispose());
  });
});
