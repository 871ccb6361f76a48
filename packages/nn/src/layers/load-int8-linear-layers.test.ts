import { memory, randomNormal, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { isFrozenInt8Weight, quantizeWeightPerChannel, type Int8Weight } from '@attnkit/kernels';
import { thrown } from '@attnkit/test-utils';
import { Module } from '../module/module.js';
import { Embedding } from './embedding.js';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';
import { loadInt8LinearLayers } from './load-int8-linear-layers.js';
import { quantizeLinearLayers } from './quantize-linear-layers.js';

beforeAll(() => useBackend('cpu'));

class Net extends Module {
  readonly embed: Embedding;
  readonly fc: Linear;
  readonly head: Linear;
  constructor() {
    super();
    [this.embed, this.fc, this.head] = this.guard(() => [
      this.registerModule('embed', new Embedding(10, 8)),
      this.registerModule('fc', new Linear(8, 16, { seed: 1 })),
      this.registerModule('head', new Linear(16, 3, { seed: 2 })),
    ] as const);
  }
  forward(x: Tensor): Tensor {
    return tidy(() => this.head.forward(this.fc.forward(x)));
  }
}

/** The int8 weights `quantizeLinearLayers` would make of `net`'s Linears, as a checkpoint stores them. */
function int8WeightsOf(net: Net): Map<string, Int8Weight> {
  return new Map((['fc', 'head'] as const).map((path) => [path, quantizeWeightPerChannel({ values: net[path].weight.dataSync() as Float32Array, inFeatures: net[path].inFeatures, outFeatures: net[path].outFeatures })]));
}

describe('loadInt8LinearLayers', () => {
  it('replaces the named Linears with Int8Linears holding the given values, bit-identical to quantizeLinearLayers, and leaks nothing', async () => {
    const before = memory().numTensors;
    const [loaded, quantized] = [new Net(), new Net()];
    const weights = int8WeightsOf(loaded);
    const linears = [loaded.fc, loaded.head];
    expect(loadInt8LinearLayers(loaded, weights, { kernel: 'js' })).toEqual(['fc', 'head']);
    quantizeLinearLayers(quantized, { kernel: 'js' });
    expect(linears.every((m) => m.isDisposed)).toBe(true);
    expect(loaded.fc).toBeInstanceOf(Int8Linear);
    const fc = (loaded.fc as unknown as Int8Linear).weight;
    expect(Array.from(fc.values)).toEqual(Array.from(weights.get('fc')!.values)); // the values as given, in the layer's own frozen copy
    expect(isFrozenInt8Weight(fc)).toBe(true);
    const x = randomNormal([2, 4, 8], 0, 1, 'float32', 5); // [B, T, in]
    const [a, b] = [loaded.forward(x), quantized.forward(x)];
    expect(await a.data()).toEqual(await b.data());
    [a, b, x].forEach((t) => t.dispose());
    loaded.dispose();
    quantized.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('lists every mismatch at once (no module, not a Linear, wrong widths, training mode) and changes nothing', () => {
    const before = memory().numTensors;
    const net = new Net().train();
    const weights = int8WeightsOf(net);
    const embedding = { values: new Int8Array(80), scales: new Float32Array(10).fill(1), inFeatures: 8, outFeatures: 10 };
    const bad = new Map([['missing', weights.get('fc')!], ['embed', embedding], ['fc', weights.get('head')!], ['head', weights.get('head')!]]);
    const error = thrown(() => loadInt8LinearLayers(net, bad));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("loadInt8LinearLayers: 'weights' must be int8 weights for Linear layers of the model in eval mode, of their widths; received 'missing' names no module of the model; 'embed' is an Embedding, not a Linear; 'fc' is a Linear [out, in] = [16, 8] but its int8 weight is [3, 16]; 'head' is in training mode (Int8Linear is inference only: call eval() first).");
    expect(net.fc).toBeInstanceOf(Linear);
    expect(net.fc.isDisposed).toBe(false);
    net.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('refuses an inconsistent Int8Weight, a root path and what is not a module or a Map', () => {
    const net = new Net();
    expect(thrown(() => loadInt8LinearLayers(net, new Map([['fc', { values: new Int8Array(3), scales: new Float32Array(16), inFeatures: 8, outFeatures: 16 }]]))).message).toBe('loadInt8LinearLayers: \'weights.get("fc")\' must be values of length M·K = 16·8 = 128 and scales of length M = 16; received values of length 3 and scales of length 16.');
    expect(thrown(() => loadInt8LinearLayers(net, new Map([['', int8WeightsOf(net).get('fc')!]]))).message).toContain("'' names the root, which cannot be replaced in place");
    expect(thrown(() => loadInt8LinearLayers({} as Module, new Map()))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => loadInt8LinearLayers(net, { fc: 1 } as never)).message).toBe("loadInt8LinearLayers: 'weights' must be a Map of dotted Linear path → Int8Weight; received Object.");
    net.dispose();
  });
});
