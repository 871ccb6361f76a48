import { engine, findBackend, getBackend, memory, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend, withBackend } from '@attnkit/backends';
import { UseAfterDisposeError } from '@attnkit/errors';
import { type SentenceEncoder } from './sentence-encoder.js';
import { loadSentenceEncoder } from './load-sentence-encoder.js';

const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/sentence/', import.meta.url).pathname);
const texts = ['the first text', 'a second, somewhat longer text to embed', 'three', 'and a fourth one here', 'five', 'six is the last'];
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const backendOf = (t: Tensor) => engine().state.tensorInfo.get(t.dataId)?.backend;
let cpuModel: SentenceEncoder;
let wasmModel: SentenceEncoder;

beforeAll(async () => {
  await useBackend('wasm');
  wasmModel = await loadSentenceEncoder(`${fixtures}roberta-mean`);
  await useBackend('cpu');
  cpuModel = await loadSentenceEncoder(`${fixtures}bert-mean-normalize`);
});
afterAll(() => [cpuModel, wasmModel].forEach((m) => m.dispose()));

async function alone(model: SentenceEncoder, backend: string): Promise<Float32Array> {
  const out = await withBackend(backend, () => model.encode(texts, { batchSize: 1 }));
  const values = (await out.data()) as Float32Array;
  out.dispose();
  return values;
}

describe('concurrent encode calls', () => {
  it('on two backends, interleaved with backend switches, each gives exactly what it gives alone, on its own backend', async () => {
    const expected = [await alone(cpuModel, 'cpu'), await alone(wasmModel, 'wasm')];
    const before = memory().numTensors;
    await useBackend('cpu');
    const onCpu = cpuModel.encode(texts, { batchSize: 1 });
    await useBackend('wasm');
    const onWasm = wasmModel.encode(texts, { batchSize: 1 });
    const noise = (async () => {
      for (let i = 0; i < 12; i++) {
        await useBackend(i % 2 === 0 ? 'cpu' : 'wasm');
        await tick();
      }
    })();
    const [a, b] = await Promise.all([onCpu, onWasm, noise]);
    expect([backendOf(a), backendOf(b)]).toEqual([findBackend('cpu'), findBackend('wasm')]);
    expect([Array.from(await a.data()), Array.from(await b.data())]).toEqual(expected.map((e) => Array.from(e)));
    [a, b].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
    await useBackend('cpu');
  });

  it('several calls on one model at once each give what they give alone', async () => {
    await useBackend('cpu');
    const single = await alone(cpuModel, 'cpu');
    const outs = await Promise.all([0, 1, 2].map(() => cpuModel.encode(texts, { batchSize: 2 })));
    for (const out of outs) {
      expect(Array.from(await out.data()).map((v, i) => Math.abs(v - single[i]!)).every((d) => d < 1e-6)).toBe(true);
      out.dispose();
    }
  });

  it('a load makes its weights on the backend it started on, though the global changes while it reads', async () => {
    await useBackend('wasm');
    const loading = loadSentenceEncoder(`${fixtures}bert-dense`);
    await useBackend('cpu');
    const model = await loading;
    expect(getBackend()).toBe('cpu');
    expect(new Set(model.encoder.parameters().map(backendOf))).toEqual(new Set([findBackend('wasm')]));
    expect(new Set(model.dense.flatMap((d) => d.parameters()).map(backendOf))).toEqual(new Set([findBackend('wasm')]));
    model.dispose();
  });

  it('dispose while a call is pending: the call rejects with UseAfterDisposeError and leaves nothing behind', async () => {
    await useBackend('cpu');
    const before = memory().numTensors;
    const model = await loadSentenceEncoder(`${fixtures}bert-mean-normalize`);
    const pending = model.encode(texts, { batchSize: 1, onProgress: (done) => { if (done === 2) model.dispose(); } });
    await expect(pending).rejects.toThrow(UseAfterDisposeError);
    await expect(model.encode(texts)).rejects.toThrow('SentenceEncoder.encode: called after dispose() freed its weights. Create a new instance instead.');
    expect(memory().numTensors).toBe(before);
  });

  it('an AbortSignal stops encode between batches and a load before it finishes, leaving nothing behind', async () => {
    await useBackend('cpu');
    const before = memory().numTensors;
    const controller = new AbortController();
    const pending = cpuModel.encode(texts, { batchSize: 1, signal: controller.signal, onProgress: (done) => { if (done === 3) controller.abort(); } });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const aborted = AbortSignal.abort();
    await expect(loadSentenceEncoder(`${fixtures}bert-dense`, { signal: aborted })).rejects.toMatchObject({ name: 'AbortError' });
    const late = new AbortController();
    const loading = loadSentenceEncoder(`${fixtures}bert-dense`, { signal: late.signal });
    late.abort();
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    expect(memory().numTensors).toBe(before);
  });
});
