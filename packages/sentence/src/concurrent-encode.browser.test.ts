import { engine, findBackend, getBackend, memory, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { availableBackends, useBackend, withBackend } from '@attnkit/backends';
import { UseAfterDisposeError } from '@attnkit/errors';
import { type SentenceEncoder } from './sentence-encoder.js';
import { loadSentenceEncoder } from './load-sentence-encoder.js';
import { servedPath } from '@attnkit/test-utils';

// Concurrent use in Chromium: every backend the page has (cpu, wasm, webgl; webgpu where present).
const BACKENDS = (await availableBackends()).filter((b) => b !== 'webgpu');
const texts = ['the first text', 'a second, somewhat longer text to embed', 'three', 'and a fourth one here', 'five'];
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const backendOf = (t: Tensor) => engine().state.tensorInfo.get(t.dataId)?.backend;

function folder(name: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern
  return servedPath(new URL(`../../../tooling/reference/fixtures/sentence/${name}/`, here));
}

async function values(out: Tensor): Promise<number[]> {
  const v = Array.from(await out.data());
  out.dispose();
  return v;
}

describe('concurrent use in the browser', () => {
  it(`encodes fired at once on ${BACKENDS.join(', ')}, with backend switches between, each equal the same call alone`, async () => {
    expect(BACKENDS).toEqual(expect.arrayContaining(['cpu', 'wasm', 'webgl']));
    const models: SentenceEncoder[] = [];
    for (const b of BACKENDS) {
      await useBackend(b);
      models.push(await loadSentenceEncoder(folder('bert-mean-normalize')));
    }
    const alone: number[][] = [];
    for (const [i, b] of BACKENDS.entries()) alone.push(await values(await withBackend(b, () => models[i]!.encode(texts, { batchSize: 1 }))));
    const before = memory().numTensors;
    const calls: Array<Promise<Tensor>> = [];
    for (const [i, b] of BACKENDS.entries()) {
      await useBackend(b);
      calls.push(models[i]!.encode(texts, { batchSize: 1 }));
    }
    const switching = (async () => {
      for (let i = 0; i < 10; i++) (await useBackend(BACKENDS[i % BACKENDS.length]!), await tick());
    })();
    const [outs] = await Promise.all([Promise.all(calls), switching]);
    expect(outs.map(backendOf)).toEqual(BACKENDS.map((b) => findBackend(b)));
    expect(await Promise.all(outs.map(values))).toEqual(alone);
    expect(memory().numTensors).toBe(before);
    models.forEach((m) => m.dispose());
    await useBackend('cpu');
  }, 60_000);

  it('overlapping withBackend calls on every backend each see their own, and the caller\'s comes back', async () => {
    await useBackend('cpu');
    const steps = (name: string) => withBackend(name, async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 5; i++) (await tick(), seen.add(getBackend()));
      return [...seen];
    });
    expect(await Promise.all(BACKENDS.map(steps))).toEqual(BACKENDS.map((b) => [b]));
    expect(getBackend()).toBe('cpu');
  });

  it('dispose while an encode is pending on webgl: UseAfterDisposeError, nothing left behind', async () => {
    await useBackend('webgl');
    const before = memory().numTensors;
    const model = await loadSentenceEncoder(folder('bert-dense'));
    await expect(model.encode(texts, { batchSize: 1, onProgress: (done) => { if (done === 2) model.dispose(); } })).rejects.toThrow(UseAfterDisposeError);
    expect(memory().numTensors).toBe(before);
    await useBackend('cpu');
  });
});
