// One Node engine of the generation bench on one model, in a fresh process:
//   tsx src/generation/node-engine.ts '<engine id>' <model> <runs> <batches, e.g. 1,4> <threads> (attnkit's built packages: built-node-engine.ts)
// prints its EngineModelResult as JSON; `node-engine.ts bandwidth <threads>` prints the memory bandwidth instead.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { env } from '@tensorflow/tfjs-core';
import { modelsDir, transformersDir } from '../peer/paths.js';
import { measureBandwidth, WORKER_SOURCE, type ProbeWorker } from './bandwidth.js';
import { allTfjsVariants, nodeGenerationEngines, type GenerationEngine } from './engines.js';
import { measureGeneration, type EngineModelResult, type Generator } from './measure.js';
import { generationModelDir, readGenerationReference, readModelConfig } from './paths.js';
import type { TransformersGeneration } from './transformers-generator.js';

env().set('PROD', true);

async function transformers(): Promise<TransformersGeneration> {
  const module = (await import(pathToFileURL(join(transformersDir(), 'dist', 'transformers.node.mjs')).href)) as TransformersGeneration;
  module.env.allowRemoteModels = false;
  module.env.allowLocalModels = true;
  module.env.localModelPath = `${modelsDir}/`;
  return module;
}

async function create(spec: GenerationEngine, model: string): Promise<Generator> {
  const folder = generationModelDir(model);
  if (spec.library === 'attnkit') return (await import('./attnkit-generator.js')).createAttnkitGenerator(spec, folder);
  if (spec.library === 'onnxruntime-web') {
    const config = readModelConfig(model);
    const heads = Number(config['num_attention_heads'] ?? config['n_head']);
    const width = Number(config['hidden_size'] ?? config['n_embd']);
    const layers = Number(config['num_hidden_layers'] ?? config['n_layer']);
    return (await import('./ort-web-generator.js')).createOrtWebGenerator(spec, folder, { layers, kvHeads: Number(config['num_key_value_heads'] ?? heads), headDim: width / heads });
  }
  return (await import('./transformers-generator.js')).createTransformersGenerator(await transformers(), spec, model);
}

function nodeWorker(): ProbeWorker {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const queue: unknown[] = [];
  const waiting: ((value: never) => void)[] = [];
  worker.on('message', (message) => (waiting.length > 0 ? waiting.shift()!(message as never) : queue.push(message)));
  return {
    send: (message) => worker.postMessage(message),
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift() as never) : new Promise((resolve) => waiting.push(resolve))),
    terminate: () => void worker.terminate(),
  };
}

async function main(): Promise<void> {
  const [id, a, b, c, d] = process.argv.slice(2);
  if (id === 'bandwidth') {
    const result = await measureBandwidth(Number(a), nodeWorker, `Node ${process.versions.node}`);
    process.stdout.write(`\n@@generation-result ${JSON.stringify(result)}\n`);
    return;
  }
  const [model, runs, batches, threads] = [a!, Number(b ?? 1), (c ?? '1,4').split(',').map(Number), Number(d ?? 2)];
  const engines = nodeGenerationEngines(threads, allTfjsVariants(threads));
  const spec = engines.find((s) => s.id === id);
  if (spec === undefined) throw new Error(`node-engine: no engine '${id}'; engines: ${engines.map((s) => s.id).join(', ')}`);
  const { prompts } = readGenerationReference(model);
  let result: EngineModelResult;
  try {
    result = await measureGeneration(spec.id, model, () => create(spec, model), prompts, batches, runs);
  } catch (error) {
    result = { engine: spec.id, model, loadMs: NaN, batches: [], threads: '', error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`\n@@generation-result ${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0), // onnxruntime-web's worker threads would keep the process alive
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
