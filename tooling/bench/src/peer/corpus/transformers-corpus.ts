import type { Transformers } from '../transformers-types.js';
import { CORPUS_BATCH, type CorpusEmbedder, type CorpusSpec } from './corpus-engine.js';

/**
 * transformers.js on the corpus: `pipeline('feature-extraction', model, { dtype, device })` called with
 * `{ pooling: 'mean', normalize: true }` per 32 texts, in input order (`batches`) or after the user sorted the
 * texts by token count, longest first (`sorted`: `extractor.tokenizer.encode(text).length` per text, a stable
 * sort, the embeddings put back in input order; all of it timed). Tokens computed: rows × padded length of the
 * batches as the pipeline's tokenizer pads them (`padding: true, truncation: true`), counted after the timed pass.
 */
export async function createTransformersCorpus(transformers: Transformers, spec: Pick<CorpusSpec, 'backend' | 'threads' | 'precision'>, model: string): Promise<CorpusEmbedder> {
  const onnx = transformers.env.backends.onnx;
  const web = spec.backend === 'wasm';
  if (web && onnx.wasm) onnx.wasm.numThreads = spec.threads;
  const extractor = await transformers.pipeline('feature-extraction', model, {
    dtype: spec.precision === 'q8' ? 'q8' : 'fp32',
    device: web ? 'wasm' : 'cpu',
    ...(web ? {} : { session_options: { intraOpNumThreads: spec.threads, interOpNumThreads: 1 } }),
  });
  const paddedTokens = (batches: string[][]) => batches.reduce((sum, batch) => {
    const [rows, length] = extractor.tokenizer(batch, { padding: true, truncation: true }).input_ids.dims;
    return sum + rows! * length!;
  }, 0);
  return {
    async embed(texts, calling) {
      const order = texts.map((_, i) => i);
      if (calling === 'sorted') {
        const lengths = texts.map((text) => extractor.tokenizer.encode(text).length);
        order.sort((a, b) => lengths[b]! - lengths[a]! || a - b);
      } else if (calling !== 'batches') {
        throw new Error(`transformers.js corpus: no calling '${calling}'`);
      }
      let data: Float32Array | undefined;
      const batches: string[][] = [];
      for (let start = 0; start < order.length; start += CORPUS_BATCH) {
        const rows = order.slice(start, start + CORPUS_BATCH);
        const batch = rows.map((r) => texts[r]!);
        batches.push(batch);
        const out = await extractor(batch, { pooling: 'mean', normalize: true }); // [b, E]
        const width = out.dims[1]!;
        data ??= new Float32Array(texts.length * width);
        const flat = out.data as Float32Array;
        rows.forEach((r, i) => data!.set(flat.subarray(i * width, (i + 1) * width), r * width));
      }
      return { data: data ?? new Float32Array(0), tokens: async () => paddedTokens(batches) };
    },
    async ids(texts) {
      return texts.map((text) => extractor.tokenizer.encode(text));
    },
    async threadsUsed() {
      return web ? String(onnx.wasm?.numThreads ?? '?') : `${spec.threads} (intraOpNumThreads)`;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
