import { Worker } from 'node:worker_threads';
import { AttnkitError } from '@attnkit/errors';
import type { Embedder } from './embedder.js';
import type { WorkerReply, WorkerSettings } from './worker-messages.js';

/** A typed failure a worker reported (a bad model folder, an unavailable backend): exit code 2 from the CLI. */
export class EmbedWorkerError extends AttnkitError {
  constructor(message: string) {
    super('ATTNKIT_EMBED_WORKER', message);
  }
}

// In the published build the worker is the .js beside this file. Run from sources (tsx, as `npm run
// demo` does), it is the .ts file, and the worker registers tsx's loader itself before importing it
// (a worker does not inherit the loader hooks of the main thread).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCES ? './embed-worker.ts' : './embed-worker.js', import.meta.url);

function startWorker(settings: WorkerSettings): Worker {
  if (!FROM_SOURCES) return new Worker(WORKER_URL, { workerData: settings });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(boot, { eval: true, workerData: settings });
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, { resolve: (v: Float32Array) => void; reject: (e: Error) => void }>;
}

/**
 * Worker threads that each hold the model and embed chunks of texts. `embed` goes to the least busy
 * worker; the promises resolve in any order (the caller keeps input order). A worker that crashes
 * rejects everything it held.
 *
 * @example
 * const pool = await WorkerPool.start(2, settings);
 * const vectors = await pool.embed(['a text', 'another']); // Float32Array of 2 × pool.dim
 * await pool.stop();
 */
export class WorkerPool implements Embedder {
  readonly dim: number;
  readonly #slots: Slot[];
  #sequence = 0;

  private constructor(slots: Slot[], dim: number) {
    this.#slots = slots;
    this.dim = dim;
  }

  static async start(count: number, settings: WorkerSettings): Promise<WorkerPool> {
    const slots: Slot[] = [];
    const ready: Promise<number>[] = [];
    for (let i = 0; i < count; i++) {
      const worker = startWorker(settings);
      const slot: Slot = { worker, pending: new Map() };
      slots.push(slot);
      ready.push(
        new Promise<number>((resolve, reject) => {
          worker.on('message', (reply: WorkerReply) => {
            if (reply.type === 'ready') return resolve(reply.dim);
            if (reply.type === 'failed' && reply.sequence === undefined) return reject(reply.typed ? new EmbedWorkerError(reply.message) : new Error(reply.message));
            const waiting = slot.pending.get(reply.sequence!);
            slot.pending.delete(reply.sequence!);
            if (reply.type === 'vectors') waiting?.resolve(reply.vectors);
            else waiting?.reject(reply.typed ? new EmbedWorkerError(reply.message) : new Error(reply.message));
          });
          const crashed = (error: Error) => {
            reject(error);
            for (const { reject: fail } of slot.pending.values()) fail(error);
            slot.pending.clear();
          };
          worker.on('error', crashed);
          worker.on('exit', (code) => crashed(new Error(`an embedding worker exited (code ${code})`)));
        }),
      );
    }
    try {
      const dims = await Promise.all(ready);
      return new WorkerPool(slots, dims[0]!);
    } catch (error) {
      await Promise.all(slots.map((s) => s.worker.terminate()));
      throw error;
    }
  }

  /** Embeds `texts` in the least busy worker: `[texts.length × dim]` float32 values, row-major. */
  embed(texts: readonly string[]): Promise<Float32Array> {
    const slot = this.#slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const sequence = this.#sequence++;
    return new Promise((resolve, reject) => {
      slot.pending.set(sequence, { resolve, reject });
      slot.worker.postMessage({ type: 'embed', sequence, texts });
    });
  }

  /** Stops every worker. */
  async stop(): Promise<void> {
    await Promise.all(this.#slots.map((s) => { s.worker.removeAllListeners('exit'); return s.worker.terminate(); }));
  }
}
