import { memory, randomNormal, relu, tensor2d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { Module } from '../module/module.js';
import { ModuleList } from '../module/module-list.js';
import { Int8Linear } from './int8-linear.js';
import { LayerNorm } from './layer-norm.js';
import { Linear } from './linear.js';
import { quantizeLinearLayers } from './quantize-linear-layers.js';

beforeAll(() => useBackend('cpu'));

class Block extends Module {
  readonly fc: Linear;
  readonly proj: Linear;
  readonly norm: LayerNorm;
  constructor(width: number, seed: number) {
    super();
    [this.fc, this.proj, this.norm] = this.guard(() => [
      this.registerModule('fc', new Linear(width, 2 * width, { seed })),
      this.registerModule('proj', new Linear(2 * width, width, { seed: seed + 2 })),
      this.registerModule('norm', new LayerNorm(width)),
    ] as const);
  }
  forward(x: Tensor): Tensor {
    return tidy(() => this.norm.forward(this.proj.forward(relu(this.fc.forward(x)))));
  }
}

class Net extends Module {
  readonly layers: ModuleList<Block>;
  readonly head: Linear;
  constructor(width = 16) {
    super();
    [this.layers, this.head] = this.guard(() => [
      this.registerModule('layers', new ModuleList([new Block(width, 1), new Block(width, 5)])),
      this.registerModule('head', new Linear(width, 3, { seed: 9 })),
    ] as const);
  }
  forward(x: Tensor): Tensor {
    return tidy(() => this.head.forward([...this.layers].reduce((h, block) => block.forward(h), x)));
  }
}

const relativeError = (want: Float32Array, got: Float32Array) => Math.sqrt(want.reduce((s, v, i) => s + (v - (got[i] as number)) ** 2, 0) / want.reduce((s, v) => s + v ** 2, 0));

describe('quantizeLinearLayers', () => {
  it('replaces every Linear in place (fields and ModuleList entries), disposes the float ones, keeps forward within 3% and leaks nothing', async () => {
    const before = memory().numTensors;
    const net = new Net();
    const x = randomNormal([2, 5, 16], 0, 1, 'float32', 3); // [B, T, E], as BERT calls its projections
    const float = net.forward(x);
    const linears = net.namedModules().filter(([, m]) => m instanceof Linear).map(([, m]) => m);
    expect(quantizeLinearLayers(net)).toEqual(['layers.0.fc', 'layers.0.proj', 'layers.1.fc', 'layers.1.proj', 'head']);
    expect(linears.every((m) => m.isDisposed)).toBe(true);
    expect([net.head, net.layers.at(0).fc, net.layers.at(1).proj, [...net.layers][1]!.fc].every((m) => m instanceof Int8Linear)).toBe(true);
    expect(net.namedParameters().map(([key]) => key)).toEqual(['layers.0.fc.bias', 'layers.0.proj.bias', 'layers.0.norm.weight', 'layers.0.norm.bias', 'layers.1.fc.bias', 'layers.1.proj.bias', 'layers.1.norm.weight', 'layers.1.norm.bias', 'head.bias']);
    const int8 = net.forward(x);
    expect(int8.shape).toEqual([2, 5, 3]);
    expect(relativeError(await float.data() as Float32Array, await int8.data() as Float32Array)).toBeLessThan(0.03);
    const during = memory().numTensors;
    net.forward(x).dispose();
    expect(memory().numTensors).toBe(during);
    [x, float, int8].forEach((t) => t.dispose());
    net.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('keeps the Linear forward contract for [in], [N, in] and [B, T, in] inputs', () => {
    const linear = new Linear(8, 4, { seed: 2 });
    const int8 = Int8Linear.fromLinear(linear);
    for (const shape of [[8], [3, 8], [2, 3, 8], [0, 8]]) {
      const x = randomNormal(shape);
      const [want, got] = [linear.forward(x), int8.forward(x)];
      expect(got.shape).toEqual(want.shape);
      expect(got.dtype).toBe(want.dtype);
      [x, want, got].forEach((t) => t.dispose());
    }
    [linear, int8].forEach((m) => m.dispose());
  });

  it('skips the paths skip() names; dispose: false leaves the float Linears to the caller', () => {
    const net = new Net();
    const head = net.head;
    const fc = net.layers.at(0).fc;
    expect(quantizeLinearLayers(net, { skip: (path) => path === 'head', dispose: false })).toEqual(['layers.0.fc', 'layers.0.proj', 'layers.1.fc', 'layers.1.proj']);
    expect(net.head).toBe(head);
    expect(fc.isDisposed).toBe(false);
    expect(quantizeLinearLayers(net)).toEqual(['head']); // the rest are Int8Linear already
    expect(head.isDisposed).toBe(true);
    fc.dispose();
    net.dispose();
  });

  it('keeps a Linear shared with a skipped path alive there', () => {
    class Shared extends Module {
      readonly a: Module & { readonly lin: Linear };
      readonly b: Module & { readonly lin: Linear };
      constructor() {
        super();
        const lin = new Linear(4, 4, { seed: 3 });
        const holder = (): Module & { lin: Linear } => {
          const m = new (class extends Module {
            lin = this.registerModule('lin', lin);
          })();
          return m;
        };
        [this.a, this.b] = [this.registerModule('a', holder()), this.registerModule('b', holder())];
      }
    }
    const net = new Shared().eval();
    expect(quantizeLinearLayers(net, { skip: (path) => path === 'b.lin' })).toEqual(['a.lin']);
    expect(net.a.lin).toBeInstanceOf(Int8Linear);
    expect(net.b.lin.isDisposed).toBe(false); // still the float Linear at b.lin
    const y = net.b.lin.forward(tensor2d([[1, 2, 3, 4]]));
    expect(y.shape).toEqual([1, 4]);
    y.dispose();
    net.dispose();
  });

  it('returns [] for a model without Linear layers', () => {
    const norm = new LayerNorm(4);
    expect(quantizeLinearLayers(norm)).toEqual([]);
    expect(quantizeLinearLayers(new ModuleList([norm]))).toEqual([]);
    norm.dispose();
  });

  it('refuses a root Linear, a model in training mode, bad options; a failure half-way changes nothing and leaves no tensor', () => {
    const linear = new Linear(4, 4);
    const cases: Array<[() => unknown, string]> = [
      [() => quantizeLinearLayers(linear), "quantizeLinearLayers: 'module' must be a module containing Linear layers (a Linear itself cannot be replaced in place); received a Linear. Use Int8Linear.fromLinear(linear) for a single layer."],
      [() => quantizeLinearLayers({} as never), "quantizeLinearLayers: 'module' must be a Module; received Object."],
      [() => quantizeLinearLayers(new ModuleList([]), { dipose: false } as never), "quantizeLinearLayers: 'options' must be an object with only the keys skip, dispose, kernel; received the unknown key 'dipose'. Did you mean 'dispose'?"],
      [() => quantizeLinearLayers(new ModuleList([]), { skip: 'head' } as never), "quantizeLinearLayers: 'skip' must be a function (path) => boolean; received string 'head'."],
    ];
    for (const [call, message] of cases) {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    }
    linear.dispose();

    const net = new Net().train();
    const training = thrown(() => quantizeLinearLayers(net));
    expect(training).toBeInstanceOf(InvalidArgumentError);
    expect(training.message).toBe("quantizeLinearLayers: 'module' must be a model in eval mode (Int8Linear is inference only); received Linear layers in training mode (layers.0.fc, layers.0.proj, layers.1.fc, ...). Call model.eval() first; train the float model before quantizing it.");
    net.eval();
    net.head.weight.assign(tensor2d(Array.from({ length: 3 }, (_, i) => Array.from({ length: 16 }, () => (i === 1 ? NaN : 0.5)))));
    const before = memory().numTensors;
    const error = thrown(() => quantizeLinearLayers(net)); // the head comes last: four Int8Linear are built first
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/non-finite|NaN/);
    expect(memory().numTensors).toBe(before);
    expect(net.namedModules().some(([, m]) => m instanceof Int8Linear)).toBe(false);
    net.dispose();
  });
});
