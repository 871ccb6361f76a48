import { describeBackend, useBackend } from '@attnkit/backends';
import { kernelThreads, startKernelThreads } from '@attnkit/kernels';
import type { ModelSource } from '@attnkit/hub';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import type { Embedder, EngineSpec } from './engine.js';

/** The backend started (wasm: attnkit's kernel threads at `spec.threads`, tfjs-wasm's pool at the library's default; webgl or webgpu) and the model loaded (int8: `quantize: 'int8'`). */
export async function loadAttnkit(spec: Pick<EngineSpec, 'backend' | 'threads' | 'precision'>, source: ModelSource, wasmPaths?: string): Promise<SentenceEncoder> {
  const backend = spec.backend === 'webgl' || spec.backend === 'webgpu' ? spec.backend : 'wasm';
  // `threads` is the kernels' workers (the products and attention); tfjs-wasm's own pool gets the library's default
  // (the cores those leave: 1 on 2 cores), or 1 for a one-thread engine
  await useBackend(backend, backend === 'wasm' ? { ...(spec.threads === 1 ? { numThreads: 1 } : {}), ...(wasmPaths ? { wasmPaths } : {}) } : {});
  if (backend === 'wasm') await startKernelThreads({ threads: spec.threads });
  return loadSentenceEncoder(source, spec.precision === 'int8' ? { quantize: 'int8' } : {});
}

/**
 * attnkit as transformers.js' pipeline('feature-extraction')(texts, { pooling: 'mean', normalize: true }):
 * `loadSentenceEncoder` on the plain folder (mean pooling over the attention mask; truncation to the
 * tokenizer's model_max_length, 128, keeping [SEP]), `encode(texts, { normalize: true })`, one batch.
 * int8: `loadSentenceEncoder(folder, { quantize: 'int8' })` (every Linear of the encoder on the int8
 * kernels: relaxed SIMD in Chromium, SIMD in Node 20), so its cold start includes quantizing the weights.
 */
export async function createAttnkit(spec: EngineSpec, source: ModelSource, wasmPaths?: string): Promise<Embedder> {
  const model = await loadAttnkit(spec, source, wasmPaths);
  const backend = spec.backend === 'webgl' || spec.backend === 'webgpu' ? spec.backend : 'wasm';
  return {
    async embed(texts) {
      const embeddings = await model.encode(texts, { normalize: true, batchSize: texts.length });
      const data = (await embeddings.data()) as Float32Array;
      embeddings.dispose();
      return data;
    },
    async ids(texts) {
      return model.tokenizer.encode([...texts], { maxLength: model.maxSeqLength, truncation: true, padding: 'longest' }).inputIds;
    },
    async threadsUsed() {
      const caps = await describeBackend();
      return caps.wasm ? `${caps.wasm.threadCount} (kernels ${kernelThreads().threads})` : backend;
    },
    async dispose() {
      model.dispose();
    },
  };
}
