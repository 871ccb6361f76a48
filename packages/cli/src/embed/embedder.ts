import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import type { WorkerSettings } from './worker-messages.js';

/** What embeds the chunks of `attnkit embed`: worker threads (`WorkerPool`) or this thread (`startEmbedder`). */
export interface Embedder {
  /** Width of the vectors. */
  readonly dim: number;
  /** Embeds `texts`: `[texts.length × dim]` float32 values, row-major. */
  embed(texts: readonly string[]): Promise<Float32Array>;
  /** Frees the model (and stops any threads). */
  stop(): Promise<void>;
}

/**
 * Loads the model in this thread, as `settings` say (backend, wasm threads, batch size, prompt,
 * normalize), and embeds chunks one after another. Each worker of `WorkerPool` runs one; `attnkit
 * embed` runs one in the main thread for small inputs, where starting workers costs more than they save.
 *
 * @example
 * const embedder = await startEmbedder({ model: '/models/minilm', backend: 'wasm', threads: 2, batchSize: 32, normalize: false, promptName: null });
 * const vectors = await embedder.embed(['a text', 'another']); // Float32Array of 2 × embedder.dim
 * await embedder.stop();
 */
export async function startEmbedder(settings: WorkerSettings): Promise<Embedder> {
  await useBackend(settings.backend, settings.backend === 'wasm' ? { numThreads: settings.threads } : {});
  const model = await loadSentenceEncoder(settings.model);
  const probe = await model.encode(['probe']); // [1, dim]; also warms the kernels up
  const dim = probe.shape[1];
  probe.dispose();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    dim,
    embed(texts) {
      const vectors = queue.then(async () => {
        const embeddings = await model.encode(texts, { batchSize: settings.batchSize, normalize: settings.normalize, ...(settings.promptName === null ? {} : { promptName: settings.promptName }) });
        try {
          return (await embeddings.data()) as Float32Array;
        } finally {
          embeddings.dispose();
        }
      });
      queue = vectors.catch(() => undefined); // one chunk at a time, in the order they came
      return vectors;
    },
    async stop() {
      await queue;
      model.dispose();
    },
  };
}
