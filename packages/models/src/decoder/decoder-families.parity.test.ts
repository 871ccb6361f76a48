import { gather, memory, reshape, tidy } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, servedPath } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoders.json' with { type: 'json' };
import { loadCausalLM } from '../load/load-causal-lm.js';
import type { CausalLM } from './decoder-for-causal-lm.js';

// Every decoder family's causal LM against transformers 5.17's own class, random weights saved by
// save_pretrained (tooling/reference/make_decoder_fixtures.py): logits against float64 on every backend
// (Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu), and greedy generations token for token
// against transformers' generate(do_sample=False) — each text alone, as one left-padded batch, and with a
// repetition penalty — on cpu and wasm (on WebGL and WebGPU the logits' error, ≤ 6.1e-6, is far below the smallest
// gap between two candidate tokens of these random models, min_greedy_margin ≥ 6.8e-4, but generating there
// compiles shaders for every new cache length: over 15 minutes in headless Chromium on SwiftShader).
interface DecoderFixture {
  readonly folder: string;
  readonly model_class: string;
  readonly texts: string[];
  readonly tokenized: Record<string, number[]>;
  readonly logits: { input_ids: number[][]; attention_mask: number[][]; logits: number[][][] };
  readonly greedy: { max_new_tokens: number; single: number[][]; batch: { input_ids: number[][]; attention_mask: number[][]; new_tokens: number[][] }; 'repetition_penalty_1.3': number[] };
  readonly min_greedy_margin: number;
}
const FIXTURES = (fixtures as unknown as { cases: Record<string, DecoderFixture> }).cases;
const BACKENDS = await availableBackends();
/**
 * Max abs difference ≤ 1e-4 on every backend (measured ≤ 6.1e-6): on WebGL and WebGPU the rotary tables come
 * from preciseCosSin, not the GPU's own cos and sin (1.5e-3 off at large angles, 3.1e-3 on these logits before).
 */
const TOLERANCE = 1e-4;
const GREEDY_BACKENDS = BACKENDS.filter((b) => b === 'cpu' || b === 'wasm');
const table = new ParityTable(`decoder families (logits) vs transformers 5.17, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
const greedyRows: string[] = [];

/** A fixture folder: a path in Node, a URL the dev server serves in the browser. */
function folder(relative: string): string {
  const here = import.meta.url; // not new URL(`...${x}`, import.meta.url): Vite rewrites that pattern as an asset glob
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

beforeAll(() => useBackend('cpu'));
afterAll(async () => {
  table.print();
  console.log(`greedy generations equal to transformers (tokens):\n${greedyRows.join('\n')}`);
  await useBackend('cpu');
});

describe('every decoder family equals its transformers model', () => {
  it('has the 11 fixture folders: GPT-2, Llama and its 4 rope types, Mistral, Qwen2 and Qwen3 tied and untied', () => {
    expect(Object.keys(FIXTURES)).toEqual(['gpt2', 'llama', 'llama-rope-linear', 'llama-rope-dynamic', 'llama-rope-llama3', 'llama-rope-yarn', 'mistral', 'qwen2', 'qwen2-tied', 'qwen3', 'qwen3-untied']);
  });

  for (const [name, fixture] of Object.entries(FIXTURES)) {
    describe(`${name}: ${fixture.model_class}`, () => {
      let model: CausalLM;
      beforeAll(async () => {
        await useBackend('cpu');
        model = await loadCausalLM(folder(fixture.folder));
      });
      afterAll(() => model.dispose());

      it('builds the class of its model_type', () => {
        expect(model.constructor.name).toBe(fixture.model_class);
      });

      it('gives transformers\' logits for a left-padded batch (the real tokens), leaving no tensor', async () => {
        const { input_ids: inputIds, attention_mask: attentionMask, logits } = fixture.logits;
        const width = inputIds[0]!.length;
        const real = attentionMask.flatMap((row, b) => row.flatMap((m, t) => (m === 1 ? [b * width + t] : [])));
        const before = memory().numTensors;
        model.forward({ inputIds, attentionMask }).logits.dispose();
        expect(memory().numTensors).toBe(before);
        const report = await compareBackends(() => tidy(() => {
          const { logits: out } = model.forward({ inputIds, attentionMask }); // [B, T, V]
          return { logits: gather(reshape(out, [-1, out.shape[2] as number]), real) }; // the real tokens: [N, V]
        }), { backends: BACKENDS, reference: { logits: logits.flat(2) } });
        table.add(name, report);
        for (const { backend, outputs } of report.results) {
          for (const o of outputs) expect(o.maxAbsDiff, `${backend} ${o.output}`).toBeLessThanOrEqual(TOLERANCE);
        }
      });

      it.each(GREEDY_BACKENDS)('generates transformers\' greedy tokens on %s: each text alone, as a left-padded batch, with repetition_penalty 1.3', async (backend) => {
        await useBackend(backend);
        const model = await loadCausalLM(folder(fixture.folder)); // fresh: dynamic rope's frequencies depend on the calls before, in transformers too
        const { greedy, texts, tokenized } = fixture;
        const options = { maxNewTokens: greedy.max_new_tokens, eosTokenId: null, doSample: false, maxLength: 128 } as const;
        const size = (maxLength: number) => ({ ...options, maxLength: Math.min(maxLength, model.config.rotary === undefined ? model.config.maxPositionEmbeddings : maxLength) });
        const singles = [];
        for (const text of texts) singles.push((await model.generate(tokenized[text]!, size(128))).tokens[0]);
        const batch = await model.generate({ inputIds: greedy.batch.input_ids, attentionMask: greedy.batch.attention_mask }, size(128));
        const penalised = await model.generate(tokenized[texts[0]!]!, { ...size(128), repetitionPenalty: 1.3 });
        expect(singles).toEqual(greedy.single);
        expect(batch.tokens).toEqual(greedy.batch.new_tokens);
        expect(penalised.tokens[0]).toEqual(greedy['repetition_penalty_1.3']);
        greedyRows.push(`${name} ${backend}: ${texts.length} × ${greedy.max_new_tokens} alone, ${texts.length} × ${greedy.max_new_tokens} batched, ${greedy.max_new_tokens} penalised: equal (smallest margin ${fixture.min_greedy_margin.toExponential(1)})`);
        model.dispose();
        await useBackend('cpu');
      });
    });
  }
});
