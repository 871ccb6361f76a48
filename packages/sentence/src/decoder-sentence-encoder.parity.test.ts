import { memory, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import decoderFixtures from '@attnkit/reference/fixtures/sentence-decoders.json' with { type: 'json' };
import { servedPath } from '@attnkit/test-utils';
import { loadSentenceEncoder } from './load-sentence-encoder.js';
import type { SentenceEncodeFloatOptions } from './sentence-encoder.js';
import { isDecoderModel } from './sentence-transformer-model.js';

// SentenceEncoder.encode on sentence-transformers folders whose Transformer is a decoder (Qwen3, Llama),
// against SentenceTransformer(folder).double().encode (sentence-transformers 6.0.1, transformers 5.17,
// tooling/reference/make_decoder_embedding_fixtures.py): left-padded batches, the eos the tokenizer's
// post-processor appends, last-token and mean pooling, prompts by name, by text and empty.
interface Case {
  readonly options: Record<string, unknown>;
  readonly output_value: 'sentence_embedding' | 'token_embeddings';
  readonly applied_prompt: string | null;
  readonly prompt_length?: number;
  readonly embeddings: number[][] | number[][][];
}
interface Folder {
  readonly folder: string;
  readonly model_type: string;
  readonly texts: string[];
  readonly input_ids: number[][];
  readonly cases: Case[];
}
const folders = Object.entries((decoderFixtures as unknown as { folders: Record<string, Folder> }).folders);
// Every backend, WebGL and WebGPU in Chromium included: ≤ 1e-5 (measured ≤ 5.5e-6). Before the rotary tables
// came from preciseCosSin there, the GPUs' own cos and sin put left-padding rows 1.4e-3 off.
const BACKENDS = await availableBackends();
const TOLERANCE = 1e-5;
const measured: string[] = [];

function folder(relative: string): string {
  const here = import.meta.url;
  return servedPath(new URL(`../../../tooling/reference/fixtures/${relative}/`, here));
}

/** sentence-transformers' keyword arguments as attnkit's options. */
function optionsOf(c: Case): SentenceEncodeFloatOptions {
  const o = new Map(Object.entries(c.options));
  return { ...(o.has('batch_size') ? { batchSize: o.get('batch_size') } : {}), ...(o.has('prompt_name') ? { promptName: o.get('prompt_name') } : {}), ...(o.has('prompt') ? { prompt: o.get('prompt') } : {}) } as SentenceEncodeFloatOptions;
}

const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
};

it('has the two decoder folders, each with prompted, unprompted and token-embedding cases', () => {
  expect(folders.map(([name]) => name)).toEqual(['qwen3-lasttoken', 'llama-mean-prompt']);
  for (const [, f] of folders) {
    expect(f.cases.filter((c) => c.output_value === 'sentence_embedding' && c.applied_prompt).length).toBeGreaterThanOrEqual(2);
    expect(f.cases.filter((c) => c.output_value === 'sentence_embedding' && !c.applied_prompt).length).toBeGreaterThanOrEqual(1);
    expect(f.cases.filter((c) => c.output_value === 'token_embeddings')).toHaveLength(1);
  }
});

describe.each(BACKENDS)('decoder sentence encoders equal SentenceTransformer.encode on %s', (backend) => {
  for (const [name, fixture] of folders) {
    it(`${name}: every case, each text alone as in the batch (on wasm), no tensor left`, async () => {
      await useBackend(backend);
      const model = await loadSentenceEncoder(folder(fixture.folder));
      try {
        expect(isDecoderModel(model.encoder)).toBe(true);
        expect(model.encoder.config.modelType).toBe(fixture.model_type);
        expect(model.tokenizer.paddingSide).toBe('left');
        const tolerance = TOLERANCE;
        const before = memory().numTensors;
        let worst = 0;
        for (const c of fixture.cases) {
          const options = optionsOf(c);
          const label = `${name} ${JSON.stringify(c.options)} ${c.output_value}`;
          if (c.output_value === 'token_embeddings') {
            const tokens = (await model.encode(fixture.texts, { ...options, outputValue: 'token_embeddings' })) as Tensor[];
            for (const [i, expected] of (c.embeddings as number[][][]).entries()) {
              expect(tokens[i]!.shape, label).toEqual([expected.length, expected[0]!.length]);
              const diff = maxAbs(await tokens[i]!.data(), expected.flat());
              expect(diff, `${label} text ${i}`).toBeLessThanOrEqual(tolerance);
              worst = Math.max(worst, diff);
            }
            tokens.forEach((t) => t.dispose());
            continue;
          }
          const embeddings = await model.encode(fixture.texts, options);
          const expected = c.embeddings as number[][];
          expect(embeddings.shape, label).toEqual([expected.length, expected[0]!.length]);
          const diff = maxAbs(await embeddings.data(), expected.flat());
          expect(diff, label).toBeLessThanOrEqual(tolerance);
          worst = Math.max(worst, diff);
          const batched = (await embeddings.array()) as number[][];
          embeddings.dispose();
          if (backend !== 'wasm' || c !== fixture.cases.find((k) => k.options['batch_size'] === 32 && k.applied_prompt)) continue; // wasm only: cpu is the slowest backend, and WebGL and WebGPU compile shaders for every length; the others are checked against the fixture only
          // one text at a time (no padding at all) gives the rows of the one padded batch of all six (a prompt applied)
          for (const [i, text] of fixture.texts.entries()) {
            const alone = await model.encode([text], { ...options, batchSize: 1 });
            expect(maxAbs(await alone.data(), batched[i]!), `${label} text ${i} alone`).toBeLessThanOrEqual(tolerance);
            alone.dispose();
          }
        }
        expect(memory().numTensors, 'tensors left by encode').toBe(before);
        measured.push(`| ${backend} | ${name} | ${fixture.cases.length} | ${worst.toExponential(1)} |`);
      } finally {
        model.dispose();
      }
    }, 60_000);
  }
});

afterAll(() => console.log(['| backend | folder | cases | max abs |', '| --- | --- | --- | --- |', ...measured].join('\n')));
