import { describeBackend } from '@attnkit/backends';
import { kernelThreads } from '@attnkit/kernels';
import type { ModelSource } from '@attnkit/hub';
import { loadAttnkit } from '../attnkit-engine.js';
import { CORPUS_BATCH, type CorpusEmbedder, type CorpusSpec } from './corpus-engine.js';

/**
 * attnkit on the corpus: `loadSentenceEncoder(folder[, { quantize: 'int8' }])`, then either
 * `encode(batch, { normalize: true })` per 32 texts in input order (`batches`), or one
 * `encode(texts, { normalize: true, batchSize: 32 })` (`encode`: the library's own batching, sorted by
 * characters, longest first). Each call's embeddings are read back (`data()`) as a user reads them.
 * Tokens computed: the model's tokenizer is wrapped to add up rows × padded length of every batch `encode` runs.
 */
export async function createAttnkitCorpus(spec: Pick<CorpusSpec, 'backend' | 'threads' | 'precision'>, source: ModelSource, wasmPaths?: string): Promise<CorpusEmbedder> {
  const model = await loadAttnkit({ ...spec, backend: 'wasm' }, source, wasmPaths);
  const tokenizer = model.tokenizer;
  const encode = tokenizer.encode.bind(tokenizer);
  let counted = 0;
  tokenizer.encode = (texts, options) => {
    const batch = encode(texts, options);
    counted += batch.inputIds.length * (batch.inputIds[0]?.length ?? 0); // rows × padded length
    return batch;
  };
  return {
    async embed(texts, calling) {
      counted = 0;
      let data: Float32Array;
      if (calling === 'encode') {
        const embeddings = await model.encode(texts, { normalize: true, batchSize: CORPUS_BATCH });
        data = (await embeddings.data()) as Float32Array;
        embeddings.dispose();
      } else if (calling === 'batches') {
        data = new Float32Array(texts.length * model.embeddingDimension);
        for (let start = 0; start < texts.length; start += CORPUS_BATCH) {
          const embeddings = await model.encode(texts.slice(start, start + CORPUS_BATCH), { normalize: true });
          data.set((await embeddings.data()) as Float32Array, start * model.embeddingDimension);
          embeddings.dispose();
        }
      } else {
        throw new Error(`attnkit corpus: no calling '${calling}' (encode sorts itself)`);
      }
      const tokens = counted;
      return { data, tokens: async () => tokens };
    },
    async ids(texts) {
      const { inputIds, attentionMask } = encode([...texts], { maxLength: model.maxSeqLength, truncation: true, padding: 'longest' });
      return inputIds.map((row, i) => row.slice(0, attentionMask[i]!.reduce((a, b) => a + b, 0)));
    },
    async threadsUsed() {
      const caps = await describeBackend();
      return caps.wasm ? `${caps.wasm.threadCount} (kernels ${kernelThreads().threads})` : '?';
    },
    async dispose() {
      model.dispose();
    },
  };
}
