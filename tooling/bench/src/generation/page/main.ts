// The generation bench page: runs one engine on one model (window.__generation.run), or the bandwidth probe,
// in a fresh browser that Playwright opened for it.
import * as transformersModule from '@huggingface/transformers';
import { createAttnkitGenerator } from '../attnkit-generator.js';
import { measureBandwidth, WORKER_SOURCE, type BandwidthResult, type ProbeWorker } from '../bandwidth.js';
import { allTfjsVariants, browserGenerationEngines } from '../engines.js';
import { measureGeneration, type EngineModelResult } from '../measure.js';
import { createTransformersGenerator, type TransformersGeneration } from '../transformers-generator.js';

const transformers = transformersModule as unknown as TransformersGeneration;
transformers.env.allowRemoteModels = false;
transformers.env.allowLocalModels = true;
transformers.env.localModelPath = '/models/';
transformers.env.useBrowserCache = false; // each engine runs in a fresh browser anyway
// onnxruntime-web's files from this server (vite.generation.config.ts serves transformers.js' own onnxruntime-web dist/ at /ort/)
transformers.env.backends.onnx.wasm!.wasmPaths = { mjs: '/ort/ort-wasm-simd-threaded.asyncify.mjs', wasm: '/ort/ort-wasm-simd-threaded.asyncify.wasm' };

function browserWorker(): ProbeWorker {
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' })));
  const queue: unknown[] = [];
  const waiting: ((value: never) => void)[] = [];
  worker.onmessage = (event) => (waiting.length > 0 ? waiting.shift()!(event.data as never) : queue.push(event.data));
  return {
    send: (message) => worker.postMessage(message),
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift() as never) : new Promise((resolve) => waiting.push(resolve))),
    terminate: () => worker.terminate(),
  };
}

export interface PageGeneration {
  readonly crossOriginIsolated: boolean;
  readonly hardwareConcurrency: number;
  readonly transformersVersion: string;
  readonly onnxruntimeWebVersion: string;
  run(id: string, model: string, prompts: number[][], runs: number, batches: number[], threads: number): Promise<EngineModelResult>;
  bandwidth(threads: number): Promise<BandwidthResult>;
}

const page: PageGeneration = {
  crossOriginIsolated: globalThis.crossOriginIsolated,
  hardwareConcurrency: navigator.hardwareConcurrency,
  transformersVersion: transformers.env.version,
  onnxruntimeWebVersion: transformers.env.backends.onnx.versions?.['web'] ?? '?',
  async run(id, model, prompts, runs, batches, threads) {
    const spec = browserGenerationEngines(threads, allTfjsVariants(threads)).find((s) => s.id === id);
    if (spec === undefined) throw new Error(`generation page: no engine '${id}'`);
    try {
      const create = () => (spec.library === 'attnkit' ? createAttnkitGenerator(spec, new URL(`/models/${model}/`, location.href).href) : createTransformersGenerator(transformers, spec, model));
      return await measureGeneration(id, model, create, prompts, batches, runs);
    } catch (error) {
      return { engine: id, model, loadMs: NaN, batches: [], threads: '', error: error instanceof Error ? error.message : String(error) };
    }
  },
  bandwidth: (threads) => measureBandwidth(threads, browserWorker, `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? ''}`),
};
(globalThis as unknown as { __generation: PageGeneration }).__generation = page;
