import { memory } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { Int8Linear, Linear } from '@attnkit/nn';
import sentenceFixtures from '@attnkit/reference/fixtures/sentence.json' with { type: 'json' };
import { loadSentenceEncoder } from './load-sentence-encoder.js';
import { servedPath } from '@attnkit/test-utils';

// loadSentenceEncoder(folder, { quantize: 'int8' }) against SentenceTransformer(folder).encode (float64):
// the int8 target, sentence-embedding cosine ≥ 0.999, on every sentence fixture (17 folders × 8 texts).
// Node runs the simd kernel (8-bit activations), Chromium the relaxed-SIMD one (7-bit), on cpu and wasm
// (the int8 products run on the CPU whatever the backend; the rest of the model runs on the backend).
interface SentenceFixture {
  readonly folder: string;
  readonly texts: string[];
  readonly cases: Array<{ readonly options: Record<string, unknown>; readonly embeddings: number[][] }>;
}
const fixtures = sentenceFixtures as unknown as Record<string, SentenceFixture>;
const BACKENDS = (await availableBackends()).filter((b) => b === 'cpu' || b === 'wasm');
const measured: string[] = [];

/** A fixture folder: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
  return servedPath(new URL(`../../../tooling/reference/fixtures/${relative}/`, here));
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let [dot, aa, bb] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) [dot, aa, bb] = [dot + a[i]! * b[i]!, aa + a[i]! ** 2, bb + b[i]! ** 2];
  return dot / Math.sqrt(aa * bb);
}

describe.each(BACKENDS)("loadSentenceEncoder({ quantize: 'int8' }) keeps sentence embeddings within cosine 0.999 of float64 on %s", (backend) => {
  it('every text of every sentence fixture; the encoder is int8, the Dense modules float; encode leaks nothing', async () => {
    await useBackend(backend);
    const cosines: number[] = [];
    for (const [name, fixture] of Object.entries(fixtures)) {
      const reference = fixture.cases.find((c) => Object.keys(c.options).join() === 'batch_size')!; // SentenceTransformer.encode(texts, batch_size=2)
      const model = await loadSentenceEncoder(folder(fixture.folder), { quantize: 'int8' });
      try {
        const modules = model.encoder.namedModules().map(([, m]) => m);
        expect(modules.some((m) => m instanceof Linear), name).toBe(false);
        expect(modules.filter((m) => m instanceof Int8Linear).length, name).toBeGreaterThanOrEqual(6 * model.encoder.config.numHiddenLayers);
        expect(model.dense.every((d) => d.linear instanceof Linear), name).toBe(true);
        const before = memory().numTensors;
        const embeddings = await model.encode(fixture.texts, { batchSize: 2 });
        const rows = (await embeddings.array()) as number[][];
        embeddings.dispose();
        expect(memory().numTensors, `${name}: tensors left by encode`).toBe(before);
        rows.forEach((row, i) => {
          const c = cosine(row, reference.embeddings[i]!);
          cosines.push(c);
          expect(c, `${name}: text ${i}`).toBeGreaterThanOrEqual(0.999);
        });
      } finally {
        model.dispose();
      }
    }
    const sorted = [...cosines].sort((a, b) => a - b);
    measured.push(`| ${typeof document === 'undefined' ? 'Node' : 'Chromium'} | ${backend} | ${cosines.length} | ${sorted[0]!.toFixed(6)} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(6)} |`);
  }, 120_000);
});

afterAll(() => console.log(['| runtime | backend | texts | min cosine | median cosine |', '| --- | --- | --- | --- | --- |', ...measured].join('\n')));
