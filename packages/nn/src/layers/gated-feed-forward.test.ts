import { add, concat, engine, memory, mul, ones, randomNormal, sigmoid, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { linear } from '../ops/linear.js';
import { SILU_MUL_KERNEL, int8Kernel, int8MatMul, type Int8KernelName } from '@attnkit/kernels';
import { fusedInt8Weight } from './fused-int8-weight.js';
import { RMSNorm } from './rms-norm.js';
import { int8Fusable } from './fused-int8-weight.js';
import { GatedFeedForward } from './gated-feed-forward.js';
import { Int8Linear } from './int8-linear.js';
import { quantizeLinearLayers } from './quantize-linear-layers.js';

beforeAll(() => useBackend('cpu'));

describe('GatedFeedForward', () => {
  it('names its children as LlamaMLP (gate_proj, up_proj, down_proj), no biases by default, and computes down(silu(gate(x)) * up(x))', async () => {
    const block = new GatedFeedForward({ embedDim: 4, feedForwardDim: 6, seed: 2 });
    expect(block.namedParameters().map(([n, p]) => [n, p.shape])).toEqual([['gate_proj.weight', [6, 4]], ['up_proj.weight', [6, 4]], ['down_proj.weight', [4, 6]]]);
    const x = randomNormal([2, 3, 4], 0, 1, 'float32', 1);
    const y = block.forward(x);
    const expected = tidy(() => {
      const gate = linear(x, block.gateProj.weight);
      return linear(mul(mul(gate, sigmoid(gate)), linear(x, block.upProj.weight)), block.downProj.weight);
    });
    expect(y.shape).toEqual([2, 3, 4]);
    expect(maxDifference(await y.data(), await expected.data()).maxAbsDiff).toBeLessThan(1e-6);
    expect(await leaksOf(() => block.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, y, expected].forEach((t) => t.dispose());
    block.dispose();
  });

  it('has biases on all three projections with bias: true (mlp_bias)', () => {
    const block = new GatedFeedForward({ embedDim: 2, feedForwardDim: 3, activation: 'gelu_pytorch_tanh', bias: true });
    expect(block.namedParameters().map(([n]) => n)).toEqual(['gate_proj.weight', 'gate_proj.bias', 'up_proj.weight', 'up_proj.bias', 'down_proj.weight', 'down_proj.bias']);
    block.dispose();
  });

  it('refuses a bad config with typed errors, leaking nothing', () => {
    const before = memory().numTensors;
    expect(thrown(() => new GatedFeedForward({ embedDim: 4, feedForwardDim: 6, activation: 'swiglu' })).message).toMatch(/^GatedFeedForward: 'activation' must be one of gelu, .*; received string 'swiglu'\.$/);
    expect(thrown(() => new GatedFeedForward({ embedDim: 4, feedForwardDim: 0 })).message).toBe("GatedFeedForward: 'feedForwardDim' must be an integer ≥ 1; received number 0.");
    expect(thrown(() => new GatedFeedForward({ embedDim: 4, feedForwardDim: 6, intermediateSize: 6 } as never)).message).toMatch(/^GatedFeedForward: 'config' must be an object with only the keys embedDim, feedForwardDim, activation, bias, seed; received the unknown key 'intermediateSize'\./);
    expect(thrown(() => new GatedFeedForward({ embedDim: 4, feedForwardDim: 6, bias: 1 as never }))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => new GatedFeedForward(null as never))).toBeInstanceOf(InvalidArgumentError);
    expect(memory().numTensors).toBe(before);
  });

  it('checks the input width (through gate_proj)', () => {
    const block = new GatedFeedForward({ embedDim: 4, feedForwardDim: 6 });
    const x = ones([2, 5]);
    expect(thrown(() => block.forward(x)).message).toBe("Linear.forward: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 4; received [2, 5].");
    x.dispose();
    block.dispose();
  });
});

describe('GatedFeedForward quantized (quantizeLinearLayers)', () => {
  it('runs gate_proj and up_proj as one int8 product, bit for bit the two products, with and without biases, leaking nothing', async () => {
    for (const bias of [false, true]) {
      const [fused, separate] = [0, 1].map(() => new GatedFeedForward({ embedDim: 16, feedForwardDim: 12, bias, seed: 3 }));
      quantizeLinearLayers(fused!);
      quantizeLinearLayers(separate!);
      const up = separate!.upProj as unknown as Int8Linear; // the same values under an explicit kernel name: not fusable with gate_proj, so two products
      separate!.replaceModule('up_proj', new Int8Linear(up.weight, up.bias, { kernel: int8Kernel(undefined, 'test').name as Int8KernelName }));
      expect(int8Fusable([fused!.gateProj, fused!.upProj])).toBe(true);
      expect(int8Fusable([separate!.gateProj, separate!.upProj])).toBe(false);
      const x = randomNormal([2, 3, 16], 0, 1, 'float32', 4);
      const [a, b] = [fused!.forward(x), separate!.forward(x)];
      expect(Array.from(await a.data())).toEqual(Array.from(await b.data()));
      expect(await leaksOf(() => fused!.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
      [a, b, x].forEach((t) => t.dispose());
      fused!.dispose();
      separate!.dispose();
    }
  });
});

describe('GatedFeedForward quantized on wasm', () => {
  it('is one int8GatedFeedForward call: bit for bit the gate/up product, the SiLU · up kernel and down_proj, with and without biases, norm and residual; a down_proj of its own kernel keeps the ops', async () => {
    await useBackend('wasm');
    try {
      const x = randomNormal([2, 3, 16], 0, 1, 'float32', 4);
      const residual = randomNormal([2, 3, 16], 0, 1, 'float32', 5);
      const norm = new RMSNorm(16, { eps: 1e-5 });
      for (const bias of [false, true]) {
        const mlp = new GatedFeedForward({ embedDim: 16, feedForwardDim: 12, bias, seed: 3 });
        quantizeLinearLayers(mlp);
        const [gate, up, down] = [mlp.gateProj, mlp.upProj, mlp.downProj] as unknown as [Int8Linear, Int8Linear, Int8Linear];
        const ops = (input: Tensor) => tidy(() => {
          const both = int8MatMul(input, fusedInt8Weight([gate, up]), bias ? concat([gate.bias!, up.bias!]) : undefined);
          return down.forward(engine().runKernel(SILU_MUL_KERNEL, { x: both }) as Tensor);
        });
        expect(Array.from(mlp.forward(x).dataSync()), `bias ${bias}`).toEqual(Array.from(ops(x).dataSync()));
        expect(Array.from(mlp.forward(x, { inputNorm: norm, residual }).dataSync()), `bias ${bias}, norm + residual`).toEqual(Array.from(add(residual, ops(norm.forward(x))).dataSync()));
        expect(await leaksOf(() => mlp.forward(x, { inputNorm: norm, residual }).dispose())).toEqual({ tensors: 0, bytes: 0 });
        const before = Array.from(mlp.forward(x).dataSync());
        mlp.replaceModule('down_proj', new Int8Linear(down.weight, down.bias, { kernel: int8Kernel(undefined, 'test').name as Int8KernelName })); // gate's kernel is the default: the block runs as ops
        expect(Array.from(mlp.forward(x).dataSync())).toEqual(before);
        mlp.dispose();
      }
      norm.dispose();
    } finally {
      await useBackend('cpu');
    }
  });
});
