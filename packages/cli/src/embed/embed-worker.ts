// The worker thread of `attnkit embed`: loads the model once (startEmbedder), then embeds the chunks
// of texts it is sent and posts the vectors back (transferred, not copied). Started by `WorkerPool`.
import { parentPort, workerData } from 'node:worker_threads';
import { env } from '@tensorflow/tfjs-core';
import { AttnkitError } from '@attnkit/errors';
import { startEmbedder, type Embedder } from './embedder.js';
import type { WorkerReply, WorkerRequest, WorkerSettings } from './worker-messages.js';

env().set('PROD', true);
const settings = workerData as WorkerSettings;
const port = parentPort!;
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
const failure = (error: unknown) => ({ message: error instanceof Error ? error.message : String(error), typed: error instanceof AttnkitError });

let embedder: Embedder;
try {
  embedder = await startEmbedder(settings);
  post({ type: 'ready', dim: embedder.dim });
} catch (error) {
  post({ type: 'failed', ...failure(error) });
  process.exit(0);
}

port.on('message', async (request: WorkerRequest) => {
  if (request.type === 'stop') {
    await embedder.stop();
    port.close();
    return;
  }
  try {
    const vectors = await embedder.embed(request.texts);
    post({ type: 'vectors', sequence: request.sequence, vectors }, [vectors.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'failed', sequence: request.sequence, ...failure(error) });
  }
});
