import { memory, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import sentenceFixtures from '@attnkit/reference/fixtures/sentence.json' with { type: 'json' };
import type { QuantizedEmbeddings } from './quantize-embeddings.js';
import { type SentenceEncodeOptions, type SentenceEncoder } from './sentence-encoder.js';
import { loadSentenceEncoder } from './load-sentence-encoder.js';
import { servedPath } from '@attnkit/test-utils';

// SentenceEncoder.encode against SentenceTransformer(folder).encode (sentence-transformers 6.0.1, float64),
// on folders written by SentenceTransformer.save (tooling/reference/make_family_fixtures.py).
// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu.
interface Case {
  readonly options: Record<string, unknown>;
  readonly output_value: 'sentence_embedding' | 'token_embeddings';
  readonly embeddings: number[][] | number[][][];
  readonly ranges?: number[][];
}
interface SentenceFixture {
  readonly folder: string;
  readonly plain: boolean;
  readonly texts: string[];
  readonly cases: Case[];
  readonly similarity: { fn: string; matrix: number[][] };
}
const fixtures = sentenceFixtures as unknown as Record<string, SentenceFixture>;
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const measured: string[] = [];

/** A fixture folder: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
  return servedPath(new URL(`../../../tooling/reference/fixtures/${relative}/`, here));
}

/** sentence-transformers' keyword arguments as attnkit's options. */
function optionsOf(c: Case): SentenceEncodeOptions {
  const o = new Map(Object.entries(c.options));
  const pick = (key: string, name: keyof SentenceEncodeOptions): Record<string, unknown> => (o.has(key) ? { [name]: o.get(key) } : {});
  return { ...pick('batch_size', 'batchSize'), ...pick('normalize_embeddings', 'normalize'), ...pick('truncate_dim', 'truncateDim'), ...pick('precision', 'precision'), ...pick('prompt_name', 'promptName'), ...pick('prompt', 'prompt'), outputValue: c.output_value } as SentenceEncodeOptions;
}

const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
};

/**
 * Quantized values equal the reference except where our float32 embeddings (on their own ranges)
 * and the float64 reference (on its ranges) fall on two sides of a level boundary (`int8` /
 * `uint8`) or of 0 (`binary`); each such difference is one level (or one bit).
 */
function quantizedMismatches(c: Case, ours: QuantizedEmbeddings, floats: number[][], reference: number[][]): { exact: number; boundary: number; other: number } {
  const expected = (c.embeddings as number[][]).flat();
  let exact = 0, boundary = 0, other = 0;
  const [min, max] = c.ranges ?? [[], []];
  const width = ours.shape[1];
  expected.forEach((value, i) => {
    if (ours.values[i] === value) return void exact++;
    const row = Math.floor(i / width);
    if (c.options['precision'] === 'int8' || c.options['precision'] === 'uint8') {
      const d = i % width;
      // the level of our float32 value on our batch's ranges, and of the float64 reference on the reference's
      const column = floats.map((r) => r[d] as number);
      const ourMin = Math.min(...column);
      const ourLevel = Math.floor(((floats[row]![d] as number) - ourMin) / ((Math.max(...column) - ourMin) / 255 || 1));
      const referenceLevel = Math.floor(((reference[row]![d] as number) - (min![d] as number)) / (((max![d] as number) - (min![d] as number)) / 255 || 1));
      const between = ourLevel !== referenceLevel;
      if (between && Math.abs(value - (ours.values[i] as number)) === 1) boundary++;
      else other++;
    } else {
      const bits = ((ours.values[i] as number) ^ value) & 0xff;
      const between = [...Array(8).keys()].filter((k) => bits & (0x80 >> k)).every((k) => {
        const d = (i % width) * 8 + k;
        return (floats[row]![d] as number) > 0 !== (reference[row]![d] as number) > 0;
      });
      if (between) boundary++;
      else other++;
    }
  });
  return { exact, boundary, other };
}

describe.each(BACKENDS)('SentenceEncoder.encode equals SentenceTransformer.encode on %s', (backend) => {
  for (const [name, fixture] of Object.entries(fixtures)) {
    it(`${name}: every option the fixture records, and similarity (${fixture.similarity.fn})`, async () => {
      await useBackend(backend);
      const notices: string[] = [];
      const model: SentenceEncoder = await loadSentenceEncoder(folder(fixture.folder), { onNotice: (m) => notices.push(m) });
      try {
        if (fixture.plain) expect(notices).toEqual([expect.stringMatching(/has no modules\.json .*mean pooling/)]);
        const tolerance = TOLERANCE[backend as keyof typeof TOLERANCE];
        const before = memory().numTensors;
        let worst = 0;
        let quantized = { exact: 0, boundary: 0, other: 0 };
        const floatTensor = await model.encode(fixture.texts, { batchSize: 2 });
        const floats = (await floatTensor.array()) as number[][];
        floatTensor.dispose();
        for (const c of fixture.cases) {
          const options = optionsOf(c);
          const label = `${name} ${JSON.stringify(c.options)} ${c.output_value}`;
          if (c.output_value === 'token_embeddings') {
            const tokens = await model.encode(fixture.texts, { ...options, outputValue: 'token_embeddings' } as never) as unknown as Tensor[];
            for (const [i, expected] of (c.embeddings as number[][][]).entries()) {
              expect(tokens[i]!.shape, label).toEqual([expected.length, expected[0]!.length]);
              worst = Math.max(worst, maxAbs(await tokens[i]!.data(), expected.flat()));
            }
            tokens.forEach((t) => t.dispose());
          } else if (options.precision !== undefined && options.precision !== 'float32') {
            const ours = await model.encode(fixture.texts, options as never) as unknown as QuantizedEmbeddings;
            const expected = c.embeddings as number[][];
            expect(ours.shape, label).toEqual([expected.length, expected[0]!.length]);
            const counts = quantizedMismatches(c, ours, floats, fixture.cases[0]!.embeddings as number[][]);
            quantized = { exact: quantized.exact + counts.exact, boundary: quantized.boundary + counts.boundary, other: quantized.other + counts.other };
            expect(counts.other, `${label}: values off by more than a boundary`).toBe(0);
          } else {
            const embeddings = await model.encode(fixture.texts, options as never);
            const expected = c.embeddings as number[][];
            expect(embeddings.shape, label).toEqual([expected.length, expected[0]!.length]);
            const diff = maxAbs(await embeddings.data(), expected.flat());
            expect(diff, label).toBeLessThanOrEqual(tolerance);
            worst = Math.max(worst, diff);
            embeddings.dispose();
          }
        }
        const embeddings = await model.encode(fixture.texts, { batchSize: 2 });
        const matrix = model.similarity(embeddings, embeddings);
        const similarityDiff = maxAbs(await matrix.data(), fixture.similarity.matrix.flat());
        expect(similarityDiff).toBeLessThanOrEqual(tolerance * 10);
        expect(model.similarityFnName).toBe(fixture.similarity.fn);
        embeddings.dispose();
        matrix.dispose();
        expect(memory().numTensors, 'tensors left by encode').toBe(before);
        expect(worst).toBeLessThanOrEqual(tolerance);
        measured.push(`| ${backend} | ${name} | ${fixture.cases.length} | ${worst.toExponential(1)} | ${quantized.exact} exact, ${quantized.boundary} at a boundary |`);
      } finally {
        model.dispose();
      }
    }, 60_000);
  }
});

afterAll(() => console.log(['| backend | folder | cases | max abs (float outputs) | quantized values |', '| --- | --- | --- | --- | --- |', ...measured].join('\n')));
