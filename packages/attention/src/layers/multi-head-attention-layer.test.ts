// fit() needs tfjs' gradient functions; '@tensorflow/tfjs' registers them (tfjs-core alone does not).
import '@tensorflow/tfjs';
import { io, mean, randomNormal, sign, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { initializers, input, layers, loadLayersModel, model, type LayersModel, type SymbolicTensor } from '@tensorflow/tfjs-layers';
import { describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/attention.json' with { type: 'json' };
import { MultiHeadAttentionLayer } from './multi-head-attention-layer.js';

const noMask = (fixtures as FixtureFile).cases['self, no mask E16 H4 B2 T6']!;

function encoder(args: ConstructorParameters<typeof MultiHeadAttentionLayer>[0]): LayersModel {
  const x = input({ shape: [6, 16] });
  const attended = new MultiHeadAttentionLayer(args).apply(x) as SymbolicTensor;
  const pooled = layers.globalAveragePooling1d({}).apply(attended) as SymbolicTensor;
  return model({ inputs: x, outputs: layers.dense({ units: 1, kernelInitializer: initializers.glorotUniform({ seed: 7 }) }).apply(pooled) as SymbolicTensor });
}

describe.each(['cpu', 'wasm'] as const)('MultiHeadAttentionLayer on %s', (backend) => {
  it('equals nn.MultiheadAttention with the same weights (set in PyTorch order)', async () => {
    await useBackend(backend);
    const x = input({ shape: [6, 16] });
    const layer = new MultiHeadAttentionLayer({ embedDim: 16, numHeads: 4 });
    const m = model({ inputs: x, outputs: layer.apply(x) as SymbolicTensor });
    expect(layer.weights.map((w) => w.name.split('/').pop())).toEqual(['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias']);
    layer.setWeights(['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias'].map((n) => fixtureTensor(specOf(noMask.weights, n))));
    const query = fixtureTensor(specOf(noMask.inputs, 'query'));
    const y = m.predict(query) as Tensor;
    expect(maxDifference(await y.data(), fixtureValues(specOf(noMask.outputs, 'output'))).maxAbsDiff).toBeLessThan(1e-5);
    [query, y].forEach((t) => t.dispose());
    m.dispose();
  });

  it('trains with fit() and round-trips through save() / loadLayersModel() with identical outputs', async () => {
    await useBackend(backend);
    const m = encoder({ embedDim: 16, numHeads: 4, dropout: 0.1, causal: true, seed: 3 });
    m.compile({ optimizer: 'adam', loss: 'meanSquaredError' });
    const xs = randomNormal([64, 6, 16], 0, 1, 'float32', 1);
    // a target the inputs determine: the sign of the mean of feature 0 over the tokens
    const ys = tidy(() => sign(mean(slice(xs, [0, 0, 0], [64, 6, 1]), 1))); // [64, 1]
    const history = await m.fit(xs, ys, { epochs: 30, batchSize: 16, verbose: 0 });
    const loss = history.history['loss'] as number[];
    console.log(`${backend}: fit() loss ${loss[0]?.toFixed(3)} -> ${loss[loss.length - 1]?.toFixed(3)} in ${loss.length} epochs`);
    expect(loss[loss.length - 1]).toBeLessThan(loss[0]! * 0.5);
    let saved: io.ModelArtifacts | undefined;
    await m.save(io.withSaveHandler(async (artifacts) => { saved = artifacts; return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } }; }));
    expect(JSON.stringify(saved?.modelTopology)).toContain('"class_name":"AttnkitMultiHeadAttention"');
    const loaded = await loadLayersModel(io.fromMemory(saved!));
    expect(loaded.layers.some((l) => l instanceof MultiHeadAttentionLayer)).toBe(true);
    const [before, after] = [m.predict(xs) as Tensor, loaded.predict(xs) as Tensor];
    expect(Array.from(await after.data())).toEqual(Array.from(await before.data()));
    [xs, ys, before, after].forEach((t) => t.dispose());
    m.dispose();
    loaded.dispose();
  }, 60_000);
});

describe('MultiHeadAttentionLayer arguments', () => {
  it('rejects a config it cannot build, and four inputs', async () => {
    await useBackend('cpu');
    const error = thrown(() => new MultiHeadAttentionLayer({ embedDim: 10, numHeads: 3 }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^MultiHeadAttentionLayer: 'embedDim' must be divisible by numHeads = 3; received embedDim=10\./);
    const xs = [input({ shape: [6, 16] }), input({ shape: [6, 16] }), input({ shape: [6, 16] }), input({ shape: [6, 16] })];
    expect(thrown(() => new MultiHeadAttentionLayer({ embedDim: 16, numHeads: 4 }).apply(xs)).message).toBe(
      "MultiHeadAttentionLayer: 'inputs' must be query, [query, value] or [query, key, value]; received 4 inputs.",
    );
  });
});
