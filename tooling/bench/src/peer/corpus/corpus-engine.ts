// The corpus workload's engines: each library called on 2 000 texts in batches of 32 as its users call it.

/**
 * How the 2 000 texts reach the library, 32 at a time:
 * - `batches`: one call per 32 texts in input order (`encode(batch, { normalize: true })`, `extractor(batch, options)`);
 * - `sorted`: the user sorts the texts by token count (longest first), calls per 32 in that order and puts the
 *   embeddings back in input order (the sort and its tokenization are timed with the rest);
 * - `encode`: attnkit's own batching, one call on the whole corpus: `encode(texts, { normalize: true, batchSize: 32 })`,
 *   which sorts by characters (longest first, as sentence-transformers) and returns input order.
 */
export type CorpusCalling = 'batches' | 'sorted' | 'encode';

export interface CorpusSpec {
  /** Stable key, e.g. `'transformers.js q8 wasm 2 sorted'`. */
  readonly id: string;
  readonly library: 'attnkit' | 'transformers.js';
  readonly precision: 'fp32' | 'q8' | 'int8';
  readonly backend: 'wasm' | 'onnxruntime-node';
  readonly threads: number;
  readonly calling: CorpusCalling;
}

/** Engines that share one loaded model (one fresh process or browser per group and round). */
export interface CorpusGroup {
  /** `'<library> <precision> <backend> <threads>'`. */
  readonly key: string;
  readonly specs: readonly CorpusSpec[];
}

/** One engine's corpus measurements in one round. */
export interface CorpusResult {
  readonly id: string;
  /** Model load and the warm-up (the group's first calling on the first `warmup` texts), ms; set on the group's first engine only. */
  readonly firstPassMs?: number;
  /** Each timed pass over the whole corpus, ms. */
  readonly passMs: number[];
  /** Tokens the model computed in one pass: the sum over its batches of rows × padded length. */
  readonly tokens: number;
  /** The embeddings of the first timed pass, `[N * E]` float32 in input order, base64 (dropped after the cosines are taken). */
  readonly embeddings?: string;
  /** The engine's ids per text (no padding), to compare with Python's. */
  readonly ids?: number[][];
  readonly threads: string;
  readonly error?: string;
}

/** A loaded engine for the corpus. */
export interface CorpusEmbedder {
  /** The whole corpus as `calling` says → `[N * E]` in input order, and the tokens computed (rows × padded length). */
  embed(texts: readonly string[], calling: CorpusCalling): Promise<{ data: ArrayLike<number>; tokens: () => Promise<number> }>;
  ids(texts: readonly string[]): Promise<number[][]>;
  threadsUsed(): Promise<string>;
  dispose(): Promise<void>;
}

export const CORPUS_BATCH = 32;

function group(library: CorpusSpec['library'], precision: CorpusSpec['precision'], backend: CorpusSpec['backend'], threads: number, callings: CorpusCalling[]): CorpusGroup {
  const key = `${library} ${precision} ${backend} ${threads}`;
  return { key, specs: callings.map((calling) => ({ id: `${key} ${calling}`, library, precision, backend, threads, calling })) };
}

/**
 * Chromium, `all` threads: transformers.js wasm q8 (batches, sorted) and fp32 (batches), attnkit wasm int8
 * (batches, encode) and fp32 (batches: the fp32 comparison is as called; its `encode` row is left out for time).
 */
export function browserCorpusGroups(all: number): CorpusGroup[] {
  return [
    group('transformers.js', 'q8', 'wasm', all, ['batches', 'sorted']),
    group('transformers.js', 'fp32', 'wasm', all, ['batches']),
    group('attnkit', 'int8', 'wasm', all, ['batches', 'encode']),
    group('attnkit', 'fp32', 'wasm', all, ['batches']),
  ];
}

/** Node, `all` threads: transformers.js on onnxruntime-node q8 (batches, sorted) and fp32 (batches), attnkit wasm int8 (batches, encode) and fp32 (batches). */
export function nodeCorpusGroups(all: number): CorpusGroup[] {
  return [
    group('transformers.js', 'q8', 'onnxruntime-node', all, ['batches', 'sorted']),
    group('transformers.js', 'fp32', 'onnxruntime-node', all, ['batches']),
    group('attnkit', 'int8', 'wasm', all, ['batches', 'encode']),
    group('attnkit', 'fp32', 'wasm', all, ['batches']),
  ];
}

function base64(values: ArrayLike<number>): string {
  const bytes = new Uint8Array(Float32Array.from(values).buffer);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** base64 float32 → N rows. */
export function embeddingRows(encoded: string, rows: number): Float32Array[] {
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const flat = new Float32Array(bytes.buffer);
  const width = flat.length / rows;
  return Array.from({ length: rows }, (_, i) => flat.subarray(i * width, (i + 1) * width));
}

/**
 * Loads the group's model once and warms it up with the group's first calling on the first `warmup` texts
 * (timed with the load: `firstPassMs`); then `runs` timed passes over all texts for each calling, the callings
 * alternated (A, B, A, B ...). The embeddings kept are each calling's first timed pass.
 */
export async function runCorpusGroup(group: CorpusGroup, create: () => Promise<CorpusEmbedder>, texts: readonly string[], runs: number, warmup: number): Promise<CorpusResult[]> {
  const started = performance.now();
  const engine = await create();
  await engine.embed(texts.slice(0, warmup), group.specs[0]!.calling);
  const firstPassMs = performance.now() - started;
  const passMs = group.specs.map(() => [] as number[]);
  const kept: { data: ArrayLike<number>; tokens: () => Promise<number> }[] = [];
  for (let r = 0; r < runs; r++) {
    for (const [i, spec] of group.specs.entries()) {
      const t = performance.now();
      const out = await engine.embed(texts, spec.calling);
      passMs[i]!.push(performance.now() - t);
      if (r === 0) kept[i] = out;
    }
  }
  const threads = await engine.threadsUsed();
  const ids = await engine.ids(texts);
  const results: CorpusResult[] = [];
  for (const [i, spec] of group.specs.entries()) {
    results.push({ id: spec.id, ...(i === 0 ? { firstPassMs } : {}), passMs: passMs[i]!, tokens: await kept[i]!.tokens(), embeddings: base64(kept[i]!.data), ...(i === 0 ? { ids } : {}), threads });
  }
  await engine.dispose();
  return results;
}
