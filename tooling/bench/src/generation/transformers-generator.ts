import type { GenerationEngine } from './engines.js';
import type { Generator } from './measure.js';

/** The part of transformers.js 4.3.1 the generation bench uses (installed by the bench alone, see ../peer/transformers-types.ts). */
export interface TransformersTensorCtor {
  new (type: 'int64', data: BigInt64Array, dims: number[]): unknown;
}
export interface CausalLMModel {
  generate(options: Record<string, unknown>): Promise<{ tolist(): unknown[][] }>;
  dispose(): Promise<unknown>;
}
export interface TransformersGeneration {
  readonly AutoModelForCausalLM: { from_pretrained(name: string, options: Record<string, unknown>): Promise<CausalLMModel> };
  readonly Tensor: TransformersTensorCtor;
  readonly env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string; useBrowserCache: boolean; readonly version: string; readonly backends: { onnx: { wasm?: { numThreads?: number; wasmPaths?: unknown }; versions?: Record<string, string> } } };
}

/**
 * transformers.js: `AutoModelForCausalLM.from_pretrained(model, { dtype: 'fp32' | 'q8', device })` and
 * `model.generate({ input_ids, attention_mask, max_new_tokens, do_sample: false, eos_token_id: null, streamer })`:
 * what its text-generation pipeline calls after tokenizing (the bench feeds token ids). The model's ONNX has
 * num_logits_to_keep, which transformers.js sets to 1 while generating. The streamer's first put is the prompt,
 * each later one a step's tokens.
 */
export async function createTransformersGenerator(transformers: TransformersGeneration, spec: GenerationEngine, model: string): Promise<Generator> {
  const onnx = transformers.env.backends.onnx;
  const web = spec.backend === 'wasm';
  if (web && onnx.wasm) onnx.wasm.numThreads = spec.threads;
  const lm = await transformers.AutoModelForCausalLM.from_pretrained(model, {
    dtype: spec.precision === 'q8' ? 'q8' : 'fp32',
    device: web ? 'wasm' : 'cpu',
    ...(web ? {} : { session_options: { intraOpNumThreads: spec.threads, interOpNumThreads: 1 } }),
  });
  return {
    async generate(rows, newTokens, onStep) {
      const [batch, length] = [rows.length, rows[0]!.length];
      const ids = new transformers.Tensor('int64', BigInt64Array.from(rows.flat(), BigInt), [batch, length]);
      const mask = new transformers.Tensor('int64', new BigInt64Array(batch * length).fill(1n), [batch, length]);
      let puts = 0;
      const streamer = { put: () => (puts++ > 0 ? onStep(puts - 2) : undefined), end: () => undefined };
      const out = await lm.generate({ input_ids: ids, attention_mask: mask, max_new_tokens: newTokens, do_sample: false, eos_token_id: null, streamer });
      return out.tolist().map((row) => row.slice(length).map(Number));
    },
    async threadsUsed() {
      return web ? String(onnx.wasm?.numThreads ?? '?') : `${spec.threads} (intraOpNumThreads)`;
    },
    async dispose() {
      await lm.dispose();
    },
  };
}
