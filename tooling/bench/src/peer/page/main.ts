// The peer bench page: runs one engine (window.__peer.run) in a fresh browser that Playwright opened for it.
import * as transformersModule from '@huggingface/transformers';
import { createAttnkit } from '../attnkit-engine.js';
import { browserEngines, runEngine, type Embedder, type EngineResult, type EngineSpec } from '../engine.js';
import { createTransformers } from '../transformers-engine.js';
import { createAttnkitCorpus } from '../corpus/attnkit-corpus.js';
import { browserCorpusGroups, runCorpusGroup, type CorpusCalling, type CorpusEmbedder, type CorpusResult } from '../corpus/corpus-engine.js';
import { createTransformersCorpus } from '../corpus/transformers-corpus.js';
import type { Transformers } from '../transformers-types.js';
import { probeGpu, type GpuInfo } from '../gpu-info.js';

/** Workers started by the page: ONNX Runtime's and tfjs' wasm threads each start one per extra thread. */
const started = { workers: 0 };
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    started.workers++;
  }
};

const transformers = transformersModule as unknown as Transformers;
transformers.env.allowRemoteModels = false;
transformers.env.allowLocalModels = true;
transformers.env.localModelPath = '/models/';
transformers.env.useBrowserCache = false; // each engine runs in a fresh browser anyway; no 110 MB write into Cache Storage during cold
const onnxWasm = transformers.env.backends.onnx.wasm!;
// onnxruntime-web's files from this server (the Vite config serves transformers.js' own onnxruntime-web dist/ at /ort/), not its CDN default
onnxWasm.wasmPaths = { mjs: '/ort/ort-wasm-simd-threaded.asyncify.mjs', wasm: '/ort/ort-wasm-simd-threaded.asyncify.wasm' };

function create(spec: EngineSpec): Promise<Embedder> {
  return spec.library === 'attnkit' ? createAttnkit(spec, new URL('/models/minilm-shaped/', location.href).href) : createTransformers(transformers, spec, 'minilm-shaped');
}

export interface PagePeer {
  readonly crossOriginIsolated: boolean;
  readonly hardwareConcurrency: number;
  readonly transformersVersion: string;
  readonly onnxruntimeWebVersion: string;
  run(id: string, texts: string[], runs: number): Promise<EngineResult & { workers: number }>;
  /** The WebGPU adapter and WebGL renderer this browser gives (gpu-info.ts). */
  gpu(): Promise<GpuInfo>;
  /** One corpus group (corpus/corpus-engine.ts): its model loaded once, a warm-up on `warmup` texts, `runs` timed passes per engine. */
  runCorpus(key: string, texts: string[], runs: number, warmup: number, callings: CorpusCalling[]): Promise<CorpusResult[]>;
}

const peer: PagePeer = {
  crossOriginIsolated: globalThis.crossOriginIsolated,
  hardwareConcurrency: navigator.hardwareConcurrency,
  transformersVersion: transformers.env.version,
  onnxruntimeWebVersion: transformers.env.backends.onnx.versions?.['web'] ?? '?',
  async run(id, texts, runs) {
    const spec = browserEngines(navigator.hardwareConcurrency, true).find((s) => s.id === id);
    if (spec === undefined) throw new Error(`peer page: no engine '${id}'`);
    try {
      return { ...(await runEngine(id, () => create(spec), texts, runs)), workers: started.workers };
    } catch (error) {
      return { id, coldMs: NaN, warmMs: [], embeddings: [], ids: [], threads: '', workers: started.workers, error: error instanceof Error ? error.message : String(error) };
    }
  },
  gpu: probeGpu,
  async runCorpus(key, texts, runs, warmup, callings) {
    const found = browserCorpusGroups(navigator.hardwareConcurrency).find((g) => g.key === key);
    const group = found && { ...found, specs: found.specs.filter((s) => callings.includes(s.calling)) };
    if (group === undefined || group.specs.length === 0) throw new Error(`peer page: no corpus group '${key}'`);
    const spec = group.specs[0]!;
    const create = (): Promise<CorpusEmbedder> => (spec.library === 'attnkit' ? createAttnkitCorpus(spec, new URL('/models/minilm-shaped/', location.href).href) : createTransformersCorpus(transformers, spec, 'minilm-shaped'));
    try {
      return await runCorpusGroup(group, create, texts, runs, warmup);
    } catch (error) {
      return group.specs.map((s) => ({ id: s.id, passMs: [], tokens: NaN, threads: '', error: error instanceof Error ? error.message : String(error) }));
    }
  },
};
(globalThis as unknown as { __peer: PagePeer }).__peer = peer;
