import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { modelsDir, transformersDir } from './paths.js';
import type { Transformers } from './transformers-types.js';

/** transformers.js' Node build from tooling/bench/onnx, reading models/ only (no downloads). */
export async function nodeTransformers(): Promise<Transformers> {
  const module = (await import(pathToFileURL(join(transformersDir(), 'dist', 'transformers.node.mjs')).href)) as Transformers;
  module.env.allowRemoteModels = false;
  module.env.allowLocalModels = true;
  module.env.localModelPath = `${modelsDir}/`;
  return module;
}
