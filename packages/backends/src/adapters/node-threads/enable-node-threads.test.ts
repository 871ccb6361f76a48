import { env } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { enableNodeThreads } from './enable-node-threads.js';

type WorkerClass = new (url: string) => {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): void;
  terminate(): Promise<number>;
};

function collect(worker: InstanceType<WorkerClass>, count: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  return new Promise((resolve) => worker.on('message', (m) => { seen.push(m); if (seen.length === count) resolve(seen); }));
}

await enableNodeThreads();
const WorkerClass = (globalThis as unknown as { Worker: WorkerClass }).Worker;

describe('enableNodeThreads', () => {
  it('turns on tfjs multithread support and installs a global Worker', () => {
    expect(env().getBool('WASM_HAS_MULTITHREAD_SUPPORT')).toBe(true);
    expect(typeof WorkerClass).toBe('function');
  });

  it('starts a worker from a blob: URL (Node alone throws ERR_WORKER_PATH) and keeps message order', async () => {
    const source = "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m * 2));";
    const worker = new WorkerClass(URL.createObjectURL(new Blob([source])));
    const replies = collect(worker, 3);
    [1, 2, 3].forEach((m) => worker.postMessage(m)); // sent before the script has even loaded
    expect(await replies).toEqual([2, 4, 6]);
    await worker.terminate();
  });

  it("hands the threaded factory (a Blob in emscripten's load message) to importScripts", async () => {
    const source = [
      "const { parentPort } = require('node:worker_threads');",
      'globalThis.importScripts = () => { throw new Error("unexpected file"); };',
      "parentPort.on('message', (m) => { importScripts(m.urlOrBlob); parentPort.postMessage([typeof m.urlOrBlob, globalThis.loaded]); });",
    ].join('\n');
    const worker = new WorkerClass(URL.createObjectURL(new Blob([source])));
    const replies = collect(worker, 1);
    worker.postMessage({ cmd: 'load', urlOrBlob: new Blob(['globalThis.loaded = 42;']) });
    expect(await replies).toEqual([['string', 42]]);
    await worker.terminate();
  });
});
