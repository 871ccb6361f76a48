import * as ortWeb from 'onnxruntime-web';
import type { GenerationEngine } from './engines.js';
import type { Generator } from './measure.js';

/**
 * onnxruntime-web 1.30 (the bench's) wasm in Node on the same onnx/model.onnx, driven by a plain greedy loop:
 * the prompt over an empty cache with num_logits_to_keep 1, then one token a step over the returned
 * present.* tensors, argmax in JavaScript. transformers.js' wasm path without transformers.js, which refuses
 * `device: 'wasm'` in Node.
 */
export async function createOrtWebGenerator(spec: GenerationEngine, folder: string, config: { layers: number; kvHeads: number; headDim: number }): Promise<Generator> {
  ortWeb.env.wasm.numThreads = spec.threads;
  const session = await ortWeb.InferenceSession.create(`${folder}/onnx/model.onnx`, { executionProviders: ['wasm'] });
  const int64 = (values: number[], dims: number[]) => new ortWeb.Tensor('int64', BigInt64Array.from(values, BigInt), dims);
  return {
    async generate(rows, newTokens, onStep) {
      const batch = rows.length;
      let past: Record<string, ortWeb.Tensor> = {};
      for (let i = 0; i < config.layers; i++) for (const kind of ['key', 'value']) past[`past_key_values.${i}.${kind}`] = new ortWeb.Tensor('float32', new Float32Array(0), [batch, config.kvHeads, 0, config.headDim]);
      let ids = rows.map((r) => [...r]);
      let pastLength = 0;
      const out: number[][] = rows.map(() => []);
      for (let step = 0; step < newTokens; step++) {
        const length = ids[0]!.length;
        const feeds = {
          input_ids: int64(ids.flat(), [batch, length]),
          attention_mask: int64(new Array<number>(batch * (pastLength + length)).fill(1), [batch, pastLength + length]),
          position_ids: int64(rows.flatMap(() => Array.from({ length }, (_, t) => pastLength + t)), [batch, length]),
          num_logits_to_keep: new ortWeb.Tensor('int64', BigInt64Array.from([1n]), []),
          ...past,
        };
        const result = await session.run(feeds);
        const logits = result['logits']!.data as Float32Array; // [B, 1, V]
        const vocab = logits.length / batch;
        const next = Array.from({ length: batch }, (_, b) => {
          let best = 0;
          for (let v = 1; v < vocab; v++) if (logits[b * vocab + v]! > logits[b * vocab + best]!) best = v;
          return best;
        });
        next.forEach((t, b) => out[b]!.push(t));
        onStep(step);
        for (const tensor of Object.values(past)) tensor.dispose();
        past = {};
        for (let i = 0; i < config.layers; i++) for (const kind of ['key', 'value']) past[`past_key_values.${i}.${kind}`] = result[`present.${i}.${kind}`]!;
        result['logits']!.dispose();
        pastLength += length;
        ids = next.map((t) => [t]);
      }
      for (const tensor of Object.values(past)) tensor.dispose();
      return out;
    },
    async threadsUsed() {
      return String(ortWeb.env.wasm.numThreads);
    },
    async dispose() {
      await session.release();
    },
  };
}
