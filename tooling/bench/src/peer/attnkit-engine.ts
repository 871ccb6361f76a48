import { describeBackend, useBackend } from '@attnkit/backends';
import type { ModelSource } from '@attnkit/bert';
import * as nn from '@attnkit/nn';
import { loadSentenceEncoder, SentenceEncoder } from '@attnkit/sentence';
import type { Embedder, EngineSpec } from './engine.js';

/**
 * `quantizeLinearLayers` of `@attnkit/nn` when this build exports it (the int8 path), else undefined.
 * Looked up at run time so the bench runs (and reports "not available yet") before it lands.
 */
export function quantizeLinearLayers(): ((module: unknown) => unknown) | undefined {
  const found = Object.entries(nn).find(([name]) => name === 'quantizeLinearLayers')?.[1];
  return typeof found === 'function' ? (found as (module: unknown) => unknown) : undefined;
}

/**
 * attnkit as transformers.js' pipeline('feature-extraction')(texts, { pooling: 'mean', normalize: true }):
 * `loadSentenceEncoder` on the plain folder (mean pooling over the attention mask; truncation to the
 * tokenizer's model_max_length, 128, keeping [SEP]), `encode(texts, { normalize: true })`, one batch.
 * int8: quantizeLinearLayers on the loaded encoder (in place, or the module it returns).
 */
export async function createAttnkit(spec: EngineSpec, source: ModelSource, wasmPaths?: string): Promise<Embedder> {
  const backend = spec.backend === 'webgl' ? 'webgl' : 'wasm';
  await useBackend(backend, backend === 'wasm' ? { numThreads: spec.threads, ...(wasmPaths ? { wasmPaths } : {}) } : {});
  let model = await loadSentenceEncoder(source);
  if (spec.precision === 'int8') {
    const quantize = quantizeLinearLayers();
    if (quantize === undefined) throw new Error('attnkit int8: not available yet (@attnkit/nn does not export quantizeLinearLayers)');
    const quantized = quantize(model.encoder);
    if (quantized !== undefined && quantized !== model.encoder) model = new SentenceEncoder(quantized as SentenceEncoder['encoder'], model.tokenizer, model.folder, model.dense);
  }
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
      return caps.wasm ? String(caps.wasm.threadCount) : backend;
    },
    async dispose() {
      model.dispose();
    },
  };
}
