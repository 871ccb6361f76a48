// The generation bench's engines and models: attnkit and transformers.js on two random-weight decoders.

/** The two models (folders under tooling/bench/models/, scripts/make_generation_models.py). */
export const GENERATION_MODELS = ['smollm-shaped', 'gpt2-shaped'] as const;
export type GenerationModel = (typeof GENERATION_MODELS)[number];

/** Which library, precision and backend an engine is, and how many threads it is given. */
export interface GenerationEngine {
  /** Stable key, e.g. `'attnkit int8 wasm 2'`: rounds and the report match engines by it. */
  readonly id: string;
  readonly library: 'attnkit' | 'transformers.js' | 'onnxruntime-web';
  /** fp32; attnkit's int8 (`loadCausalLM(folder, { quantize: 'int8' })`); transformers.js' q8 (model_quantized.onnx). */
  readonly precision: 'fp32' | 'int8' | 'q8';
  readonly backend: 'wasm' | 'onnxruntime-node';
  readonly threads: number;
  /** attnkit only: tfjs-wasm's (XNNPACK's) thread count when it differs from `threads` (attnkit's kernel threads stay `threads`). */
  readonly tfjsThreads?: number;
  /** The engine this one's ratio is taken against (same precision class: fp32 / fp32, int8 / q8). */
  readonly peer?: string;
}

function engine(library: GenerationEngine['library'], precision: GenerationEngine['precision'], backend: GenerationEngine['backend'], threads: number, peer?: string, tfjsThreads?: number): GenerationEngine {
  const variant = tfjsThreads === undefined || tfjsThreads === threads ? '' : ` tfjs ${tfjsThreads}`;
  return { id: `${library} ${precision} ${backend} ${threads}${variant}`, library, precision, backend, threads, ...(variant && tfjsThreads !== undefined ? { tfjsThreads } : {}), ...(peer ? { peer } : {}) };
}

/** attnkit fp32 and int8 with tfjs-wasm on each of `tfjsVariants` threads (besides the default, `threads`). */
function attnkitVariants(threads: number, tfjsVariants: readonly number[], peer: (precision: 'fp32' | 'q8') => string): GenerationEngine[] {
  return tfjsVariants.filter((n) => n !== threads).flatMap((n) => [engine('attnkit', 'fp32', 'wasm', threads, peer('fp32'), n), engine('attnkit', 'int8', 'wasm', threads, peer('q8'), n)]);
}

/**
 * Chromium: transformers.js wasm fp32 and q8, attnkit wasm fp32 and int8, all on `threads` threads; with
 * `tfjsVariants`, attnkit again with tfjs-wasm on those thread counts (its kernel threads on `threads`).
 */
export function browserGenerationEngines(threads: number, tfjsVariants: readonly number[] = []): GenerationEngine[] {
  return [
    engine('transformers.js', 'fp32', 'wasm', threads),
    engine('transformers.js', 'q8', 'wasm', threads),
    engine('attnkit', 'fp32', 'wasm', threads, `transformers.js fp32 wasm ${threads}`),
    engine('attnkit', 'int8', 'wasm', threads, `transformers.js q8 wasm ${threads}`),
    ...attnkitVariants(threads, tfjsVariants, (precision) => `transformers.js ${precision} wasm ${threads}`),
  ];
}

/**
 * Node: transformers.js on onnxruntime-node fp32 and q8, onnxruntime-web wasm (1.30, the bench's) fp32 on
 * the same model.onnx driven by the bench's own greedy loop, attnkit wasm fp32 and int8 (and its `tfjsVariants`).
 */
export function nodeGenerationEngines(threads: number, tfjsVariants: readonly number[] = []): GenerationEngine[] {
  return [
    engine('transformers.js', 'fp32', 'onnxruntime-node', threads),
    engine('transformers.js', 'q8', 'onnxruntime-node', threads),
    engine('onnxruntime-web', 'fp32', 'wasm', threads),
    engine('attnkit', 'fp32', 'wasm', threads, `transformers.js fp32 onnxruntime-node ${threads}`),
    engine('attnkit', 'int8', 'wasm', threads, `transformers.js q8 onnxruntime-node ${threads}`),
    ...attnkitVariants(threads, tfjsVariants, (precision) => `transformers.js ${precision} onnxruntime-node ${threads}`),
  ];
}

/** Every tfjs thread count an engine id may name (engine lookups by id, in a fresh process or page). */
export const allTfjsVariants = (threads: number): number[] => Array.from({ length: threads }, (_, i) => i + 1);
