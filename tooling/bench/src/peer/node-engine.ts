// One Node engine of the peer bench in a fresh process (so cold is cold and each thread count is its own):
// `tsx src/peer/node-engine.ts '<engine id>' <runs>` (attnkit's built packages: built-node-engine.ts) prints its EngineResult as JSON.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { env } from '@tensorflow/tfjs-core';
import * as ortWeb from 'onnxruntime-web';
import { loadTokenizer } from '@attnkit/tokenizers';
import { createAttnkit } from './attnkit-engine.js';
import { nodeEngines, runEngine, type Embedder, type EngineResult, type EngineSpec } from './engine.js';
import { modelDir } from './paths.js';
import { nodeTransformers } from './node-transformers.js';
import { readReference } from './reference.js';
import { createTransformers } from './transformers-engine.js';

env().set('PROD', true);

/**
 * onnxruntime-web 1.30 (the bench's) in Node on the same onnx/model.onnx, fed attnkit's tokenizer ids
 * (equal to Python's), mean pooling and normalize in JavaScript: transformers.js' wasm path without
 * transformers.js, which refuses `device: 'wasm'` in Node.
 */
async function createOrtWeb(spec: EngineSpec): Promise<Embedder> {
  ortWeb.env.wasm.numThreads = spec.threads;
  const tokenizer = await loadTokenizer(modelDir);
  const session = await ortWeb.InferenceSession.create(join(modelDir, 'onnx', 'model.onnx'), { executionProviders: ['wasm'] });
  const encode = (texts: readonly string[]) => tokenizer.encode([...texts], { maxLength: 128, truncation: true, padding: 'longest' });
  return {
    async embed(texts) {
      const { inputIds, attentionMask } = encode(texts);
      const [batch, length] = [inputIds.length, inputIds[0]!.length];
      const tensor = (rows: number[][]) => new ortWeb.Tensor('int64', BigInt64Array.from(rows.flat(), BigInt), [batch, length]);
      const out = await session.run({ input_ids: tensor(inputIds), attention_mask: tensor(attentionMask), token_type_ids: tensor(inputIds.map((r) => r.map(() => 0))) });
      const hidden = out['last_hidden_state']!.data as Float32Array; // [B, T, E]
      const width = hidden.length / (batch * length);
      const pooled = new Float32Array(batch * width);
      for (let b = 0; b < batch; b++) {
        const count = attentionMask[b]!.reduce((x, y) => x + y, 0);
        for (let t = 0; t < length; t++) if (attentionMask[b]![t]) for (let e = 0; e < width; e++) pooled[b * width + e]! += hidden[(b * length + t) * width + e]! / count;
        let norm = 0;
        for (let e = 0; e < width; e++) norm += pooled[b * width + e]! ** 2;
        for (let e = 0; e < width; e++) pooled[b * width + e]! /= Math.max(Math.sqrt(norm), 1e-12);
      }
      return pooled;
    },
    async ids(texts) {
      return encode(texts).inputIds;
    },
    async threadsUsed() {
      return String(ortWeb.env.wasm.numThreads);
    },
    async dispose() {
      await session.release();
    },
  };
}

async function create(spec: EngineSpec): Promise<Embedder> {
  if (spec.library === 'attnkit') return createAttnkit(spec, modelDir);
  if (spec.library === 'onnxruntime-web') return createOrtWeb(spec);
  return createTransformers(await nodeTransformers(), spec, 'minilm-shaped');
}

async function main(): Promise<void> {
  const [id, runs] = [process.argv[2], Number(process.argv[3] ?? 7)];
  const spec = nodeEngines(availableParallelism()).find((s) => s.id === id);
  if (spec === undefined) throw new Error(`node-engine: no engine '${id}'; engines: ${nodeEngines(availableParallelism()).map((s) => s.id).join(', ')}`);
  const { texts } = readReference();
  let result: EngineResult;
  try {
    result = await runEngine(spec.id, () => create(spec), texts, runs);
  } catch (error) {
    result = { id: spec.id, coldMs: NaN, warmMs: [], embeddings: [], ids: [], threads: '', error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`\n@@peer-result ${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0), // onnxruntime-web's worker threads would keep the process alive
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
