import { memory } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import fixture from '@attnkit/reference/fixtures/modernbert.json' with { type: 'json' };
import { servedPath } from '@attnkit/test-utils';
import { loadSentenceEncoder } from './load-sentence-encoder.js';

// A sentence-transformers folder whose Transformer is a ModernBERT (SentenceTransformer.save, mean pooling),
// read by loadSentenceEncoder unchanged, against SentenceTransformer(folder).encode in float64
// (tooling/reference/make_modernbert_fixtures.py). Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu.
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const measured: string[] = [];

function folder(relative: string): string {
  const here = import.meta.url;
  return servedPath(new URL(`../../../tooling/reference/fixtures/${relative}/`, here));
}

afterAll(() => console.log(`ModernBERT sentence embeddings vs sentence-transformers (max abs): ${measured.join(', ')}`));

describe('loadSentenceEncoder reads a ModernBERT sentence-transformers folder', () => {
  for (const backend of BACKENDS) {
    it(`${backend}: encode equals SentenceTransformer.encode, leaking nothing`, async () => {
      await useBackend(backend);
      const model = await loadSentenceEncoder(folder(fixture.encoder.folder));
      expect(model.encoder.constructor.name).toBe('ModernBertModel');
      const before = memory().numTensors;
      const embeddings = await model.encode(fixture.texts);
      const got = await embeddings.data(); // not dataSync: a synchronous read loses the WebGPU device in Chromium
      const want = fixture.encoder.sentence_embeddings.flat();
      expect(got.length).toBe(want.length);
      let diff = 0;
      for (let i = 0; i < want.length; i++) diff = Math.max(diff, Math.abs((got[i] as number) - (want[i] as number)));
      measured.push(`${backend} ${diff.toExponential(1)}`);
      expect(diff).toBeLessThanOrEqual(TOLERANCE[backend as keyof typeof TOLERANCE]);
      embeddings.dispose();
      expect(memory().numTensors, 'tensors left by encode').toBe(before);
      model.dispose();
    }, 60_000);
  }
});
