import type { Embedder, EngineSpec } from './engine.js';
import type { Transformers } from './transformers-types.js';

/**
 * transformers.js' `pipeline('feature-extraction', model, { dtype, device })`, called with
 * `{ pooling: 'mean', normalize: true }`. Threads: onnxruntime-web's `env.wasm.numThreads` in browsers
 * (read back after the session starts: ORT lowers it to 1 where threads cannot run), `intraOpNumThreads`
 * for onnxruntime-node.
 */
export async function createTransformers(transformers: Transformers, spec: EngineSpec, model: string): Promise<Embedder> {
  const onnx = transformers.env.backends.onnx;
  const web = spec.backend === 'wasm' || spec.backend === 'webgpu';
  if (spec.backend === 'wasm' && onnx.wasm) onnx.wasm.numThreads = spec.threads;
  const extractor = await transformers.pipeline('feature-extraction', model, {
    dtype: spec.precision === 'q8' ? 'q8' : 'fp32',
    device: spec.backend === 'webgpu' ? 'webgpu' : web ? 'wasm' : 'cpu',
    ...(web ? {} : { session_options: { intraOpNumThreads: spec.threads, interOpNumThreads: 1 } }),
  });
  return {
    async embed(texts) {
      return (await extractor(texts, { pooling: 'mean', normalize: true })).data;
    },
    async ids(texts) {
      return (extractor.tokenizer(texts, { padding: true, truncation: true }).input_ids.tolist() as unknown[][]).map((row) => row.map(Number));
    },
    async threadsUsed() {
      if (spec.backend === 'webgpu') return 'webgpu';
      return web ? String(onnx.wasm?.numThreads ?? '?') : `${spec.threads} (intraOpNumThreads)`;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
