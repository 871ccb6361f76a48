// The part of @huggingface/transformers 4.3.1's API the peer bench uses. transformers.js is installed by the
// bench alone (tooling/bench/onnx, its own lockfile), so `pnpm typecheck` checks against this instead.

/** A transformers.js Tensor: what the feature-extraction pipeline returns. */
export interface TransformersTensor {
  readonly dims: readonly number[];
  readonly data: ArrayLike<number>;
  tolist(): unknown[];
}

/** pipeline('feature-extraction', ...): texts → `[N, E]`; its tokenizer and model are public fields. */
export interface FeatureExtractionPipeline {
  (texts: readonly string[], options: { pooling: 'mean'; normalize: boolean }): Promise<TransformersTensor>;
  readonly tokenizer: ((texts: readonly string[], options: { padding: boolean; truncation: boolean }) => { input_ids: TransformersTensor }) & {
    /** One text → its ids, special tokens added. */
    encode(text: string): number[];
  };
  dispose(): Promise<void>;
}

/** The ONNX Runtime settings transformers.js exposes (`env.backends.onnx`: onnxruntime-web's `env` in browsers). */
export interface OnnxEnv {
  wasm?: { numThreads?: number; wasmPaths?: string | { mjs: string; wasm: string }; proxy?: boolean };
  versions?: Record<string, string>;
}

/** The module: `pipeline` and `env`. */
export interface Transformers {
  pipeline(task: 'feature-extraction', model: string, options: { dtype: 'fp32' | 'q8'; device: string; session_options?: Record<string, unknown> }): Promise<FeatureExtractionPipeline>;
  readonly env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    localModelPath: string;
    useBrowserCache: boolean;
    useFSCache?: boolean;
    readonly version: string;
    readonly backends: { onnx: OnnxEnv };
  };
}
