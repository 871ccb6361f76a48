// The worker thread of `attnkit embed`: loads the model once, then embeds the chunks of texts it is
// sent and posts the vectors back (transferred, not copied). Started by `WorkerPool`.
import { parentPort, workerData } from 'node:worker_threads';
import { env } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { AttnkitError } from '@attnkit/errors';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import type { WorkerReply, WorkerRequest, WorkerSettings } from './worker-messages.js';

env().set('PROD', true);
const settings = workerData as WorkerSettings;
const port = parentPort!;
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
const failure = (error: unknown) => ({ message: error instanceof Error ? error.message : String(error), typed: error instanceof AttnkitError });

let model: SentenceEncoder;
try {
  await useBackend(settings.backend, settings.backend === 'wasm' ? { numThreads: settings.threads } : {});
  model = await loadSentenceEncoder(settings.model);
  const probe = await model.encode(['probe']);
  post({ type: 'ready', dim: probe.shape[1] });
  probe.dispose();
} catch (error) {
  post({ type: 'failed', ...failure(error) });
  process.exit(0);
}

port.on('message', async (request: WorkerRequest) => {
  if (request.type === 'stop') {
    model.dispose();
    port.close();
    return;
  }
  try {
    const embeddings = await model.encode(request.texts, {
      batchSize: settings.batchSize,
      normalize: settings.normalize,
      ...(settings.promptName === null ? {} : { promptName: settings.promptName }),
    });
    const vectors = (await embeddings.data()) as Float32Array;
    embeddings.dispose();
    post({ type: 'vectors', sequence: request.sequence, vectors }, [vectors.buffer as ArrayBuffer]);
  } catch (error) {
    post({ type: 'failed', sequence: request.sequence, ...failure(error) });
  }
});
