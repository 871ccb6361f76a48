import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { ParityTable, leaksOf, servedPath } from '@attnkit/test-utils';
import reference from '@attnkit/reference/fixtures/rerank/cross-encoders.json' with { type: 'json' };
import { loadCrossEncoder } from './load-cross-encoder.js';
import type { CrossEncoder, RankedDocument } from './cross-encoder.js';

// CrossEncoder against sentence-transformers 6.0.1's CrossEncoder(folder) run in float64, on folders
// CrossEncoder.save wrote, one in sentence-transformers 4/5's layout and two plain classification
// folders (tooling/reference/make_rerank_fixtures.py). Node: cpu and wasm; Chromium: every backend.
interface Hit { readonly corpus_id: number; readonly score: number; readonly text?: string }
interface FolderFixture {
  readonly folder: string;
  readonly num_labels: number;
  readonly activation: string;
  readonly max_seq_length: number;
  readonly default_prompt_name: string | null;
  readonly pair_ids: number[][];
  readonly predict: number[] | number[][];
  readonly predict_identity: number[] | number[][];
  readonly predict_softmax?: number[][];
  readonly predict_prompt_short?: number[];
  readonly rank?: Hit[];
  readonly rank_top_3?: Hit[];
}
const FIXTURE = reference as unknown as { pairs: [string, string][]; query: string; documents: string[]; folders: Record<string, FolderFixture> };
const BACKENDS = await availableBackends();
/** Max absolute difference from float64 sentence-transformers. */
const TOLERANCE: Record<string, number> = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-4 };
const table = new ParityTable(`CrossEncoder.predict / rank vs sentence-transformers 6.0.1, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
const rows = new Map<string, Map<string, number>>();
const record = (name: string, backend: string, error: number) => {
  const row = rows.get(name) ?? new Map<string, number>();
  row.set(backend, Math.max(row.get(backend) ?? 0, error));
  rows.set(name, row);
};

function folder(relative: string): string {
  const here = import.meta.url;
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}
const worst = (got: ArrayLike<number>, want: readonly number[]) => Math.max(0, ...Array.from(got, (g, i) => Math.abs(g - want[i]!)));

/** The ranked ids equal the reference's, documents of exactly equal reference scores in either order. */
function expectSameRanking(got: readonly RankedDocument[], want: readonly Hit[], tolerance: number): number {
  expect(got.length).toBe(want.length);
  const groups = (hits: readonly { score: number }[], ids: readonly number[]) => want.map((w, i) => ids.filter((_, j) => want[j]!.score === w.score).sort().join(',') + `@${i}`);
  expect(groups(want, got.map((g) => g.corpusId))).toEqual(groups(want, want.map((w) => w.corpus_id)));
  got.forEach((g, i) => expect(Math.abs(g.score - want[i]!.score)).toBeLessThanOrEqual(tolerance));
  return worst(got.map((g) => g.score), want.map((w) => w.score));
}

beforeAll(() => useBackend('cpu'));
afterAll(async () => {
  for (const [name, row] of rows) table.add(name, { results: [...row].map(([backend, maxAbsDiff]) => ({ backend, outputs: [{ maxAbsDiff }] })) });
  table.print();
  await useBackend('cpu');
});

describe('CrossEncoder equals sentence-transformers 6.0.1', () => {
  it('covers every kind of folder', () => {
    expect(Object.keys(FIXTURE.folders)).toEqual(['bert', 'roberta-prompts', 'xlm-roberta', 'electra-v4', 'plain-mpnet', 'plain-distilbert']);
  });

  for (const [name, fixture] of Object.entries(FIXTURE.folders)) {
    it(`${name}: ${fixture.activation}, max_length ${fixture.max_seq_length}, ${fixture.num_labels} label(s)`, async () => {
      for (const backend of BACKENDS) {
        await useBackend(backend);
        const model: CrossEncoder = await loadCrossEncoder(folder(fixture.folder));
        try {
          expect([model.activation, model.maxLength, model.numLabels]).toEqual([fixture.activation.toLowerCase(), fixture.max_seq_length, fixture.num_labels]);
          const prompt = fixture.default_prompt_name === null ? '' : model.folder.prompts.get(fixture.default_prompt_name)!;
          const ids = FIXTURE.pairs.map(([a, b]) => model.tokenizer.encode([[prompt + a, b]], { maxLength: model.maxLength }).inputIds[0]);
          expect(ids, 'the ids sentence-transformers made of each pair').toEqual(fixture.pair_ids);

          const check = async (label: string, scores: Promise<{ data(): Promise<ArrayLike<number>>; shape: number[]; dispose(): void }>, want: number[] | number[][]) => {
            const tensor = await scores;
            expect(tensor.shape).toEqual(fixture.num_labels === 1 ? [FIXTURE.pairs.length] : [FIXTURE.pairs.length, fixture.num_labels]);
            const error = worst(await tensor.data(), want.flat());
            tensor.dispose();
            record(`${name} ${label}`, backend, error);
            expect(error, `${backend} ${label}`).toBeLessThanOrEqual(TOLERANCE[backend]!);
          };
          await check('predict', model.predict(FIXTURE.pairs, { batchSize: 4 }), fixture.predict);
          await check('predict identity', model.predict(FIXTURE.pairs, { batchSize: 2, activation: 'identity' }), fixture.predict_identity);
          if (fixture.predict_softmax !== undefined) await check('predict applySoftmax', model.predict(FIXTURE.pairs, { applySoftmax: true }), fixture.predict_softmax);
          if (fixture.predict_prompt_short !== undefined) await check('predict promptName', model.predict(FIXTURE.pairs, { promptName: 'short' }), fixture.predict_prompt_short);
          if (fixture.rank !== undefined) {
            const ranked = await model.rank(FIXTURE.query, FIXTURE.documents, { returnDocuments: true });
            record(`${name} rank`, backend, expectSameRanking(ranked, fixture.rank, TOLERANCE[backend]!));
            expect(ranked.map((r) => r.text)).toEqual(ranked.map((r) => FIXTURE.documents[r.corpusId]));
            expectSameRanking(await model.rank(FIXTURE.query, FIXTURE.documents, { topK: 3, batchSize: 2 }), fixture.rank_top_3!, TOLERANCE[backend]!);
          } else {
            await expect(model.rank(FIXTURE.query, FIXTURE.documents)).rejects.toThrow(`CrossEncoder.rank: 'this' must be a cross-encoder with one label (a relevance score); received one with ${fixture.num_labels} labels. Score pairs with predict() instead.`);
          }
          expect(await leaksOf(async () => (await model.predict(FIXTURE.pairs.slice(0, 2))).dispose())).toEqual({ tensors: 0, bytes: 0 });
        } finally {
          model.dispose();
        }
      }
    }, 60_000);
  }
});
