// The peer bench's engines: attnkit and transformers.js on the MiniLM-shaped model, each a list entry.
import { toRows } from './stats.js';

/** Which library, precision and backend an engine is, and how many threads it is given. */
export interface EngineSpec {
  /** Stable key, e.g. `'transformers.js q8 wasm 2'`: rounds and the report match engines by it. */
  readonly id: string;
  readonly library: 'attnkit' | 'transformers.js' | 'onnxruntime-web';
  /** fp32; transformers.js' q8 (model_quantized.onnx); attnkit's int8 (`loadSentenceEncoder(folder, { quantize: 'int8' })`). */
  readonly precision: 'fp32' | 'q8' | 'int8';
  readonly backend: 'wasm' | 'webgl' | 'webgpu' | 'onnxruntime-node';
  /** Threads asked for (0: not a thread setting, webgl and webgpu). */
  readonly threads: number;
  /** The transformers.js engine this one's ratio is taken against. */
  readonly peer?: string;
}

/** A loaded engine: embeds texts as pipeline('feature-extraction')(texts, { pooling: 'mean', normalize: true }). */
export interface Embedder {
  /** Texts → `[N * E]` embeddings, read back to JavaScript. */
  embed(texts: readonly string[]): Promise<ArrayLike<number>>;
  /** The token ids the engine feeds its model for `texts` (rows of the padded batch). */
  ids(texts: readonly string[]): Promise<number[][]>;
  /** The threads it runs on, as the runtime reports them (not as asked). */
  threadsUsed(): Promise<string>;
  dispose(): Promise<void>;
}

/** One engine's measurements in one round. */
export interface EngineResult {
  readonly id: string;
  /** Engine creation (model load) to the first embeddings, ms. */
  readonly coldMs: number;
  /** Each warm run after the cold one, ms. */
  readonly warmMs: number[];
  readonly embeddings: number[][];
  readonly ids: number[][];
  readonly threads: string;
  /** Set instead of the numbers when the engine could not run. */
  readonly error?: string;
}

/** Engine ids, spelled one way everywhere. */
export function engineId(spec: Omit<EngineSpec, 'id' | 'peer'>): string {
  return `${spec.library} ${spec.precision} ${spec.backend}${spec.threads > 0 ? ` ${spec.threads}` : ''}`;
}

function spec(library: EngineSpec['library'], precision: EngineSpec['precision'], backend: EngineSpec['backend'], threads: number, peer?: Omit<EngineSpec, 'id' | 'peer'>): EngineSpec {
  return { id: engineId({ library, precision, backend, threads }), library, precision, backend, threads, ...(peer ? { peer: engineId(peer) } : {}) };
}

/**
 * The Chromium engines, `all` = navigator.hardwareConcurrency: transformers.js wasm q8 and fp32 at 1 and all
 * threads, attnkit wasm fp32 at 1 and all threads, attnkit webgl, attnkit wasm int8 (all threads; `quantize: 'int8'`).
 * With `gpu` (bench:peer --gpu) also transformers.js `device: 'webgpu'` fp32 and q8, and attnkit fp32 webgpu.
 */
export function browserEngines(all: number, gpu = false): EngineSpec[] {
  const tjs = (precision: 'fp32' | 'q8', threads: number) => ({ library: 'transformers.js' as const, precision, backend: 'wasm' as const, threads });
  const counts = [...new Set([1, all])];
  return [
    ...counts.flatMap((n) => [spec('transformers.js', 'q8', 'wasm', n), spec('transformers.js', 'fp32', 'wasm', n)]),
    ...counts.map((n) => spec('attnkit', 'fp32', 'wasm', n, tjs('fp32', n))),
    spec('attnkit', 'int8', 'wasm', all, tjs('q8', all)),
    spec('attnkit', 'fp32', 'webgl', 0, tjs('fp32', all)),
    ...(gpu
      ? [
          spec('transformers.js', 'fp32', 'webgpu', 0),
          spec('transformers.js', 'q8', 'webgpu', 0),
          spec('attnkit', 'fp32', 'webgpu', 0, { library: 'transformers.js', precision: 'fp32', backend: 'webgpu', threads: 0 }),
        ]
      : []),
  ];
}

/**
 * The Node engines: transformers.js on its Node backend (onnxruntime-node) q8 and fp32 at 1 and all threads,
 * its `device: 'wasm'` (refused in Node: the row says so), onnxruntime-web wasm on the same model.onnx
 * (1 and all threads), attnkit wasm fp32 at 1 and all threads and int8 (`quantize: 'int8'`).
 */
export function nodeEngines(all: number): EngineSpec[] {
  const counts = [...new Set([1, all])];
  const node = (precision: 'fp32' | 'q8', threads: number) => ({ library: 'transformers.js' as const, precision, backend: 'onnxruntime-node' as const, threads });
  return [
    ...counts.flatMap((n) => [spec('transformers.js', 'q8', 'onnxruntime-node', n), spec('transformers.js', 'fp32', 'onnxruntime-node', n)]),
    spec('transformers.js', 'fp32', 'wasm', 1),
    ...counts.map((n) => spec('onnxruntime-web', 'fp32', 'wasm', n)),
    ...counts.map((n) => spec('attnkit', 'fp32', 'wasm', n, node('fp32', n))),
    spec('attnkit', 'int8', 'wasm', all, node('q8', all)),
  ];
}

/**
 * Creates the engine, embeds `texts` once (cold: creation to first embeddings), then `runs` more times (warm).
 * The cold run is the warm-up.
 */
export async function runEngine(id: string, create: () => Promise<Embedder>, texts: readonly string[], runs: number): Promise<EngineResult> {
  const started = performance.now();
  const engine = await create();
  const first = await engine.embed(texts);
  const coldMs = performance.now() - started;
  const warmMs: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    await engine.embed(texts);
    warmMs.push(performance.now() - t);
  }
  const result = { id, coldMs, warmMs, embeddings: toRows(first, texts.length), ids: await engine.ids(texts), threads: await engine.threadsUsed() };
  await engine.dispose();
  return result;
}
