import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** tooling/bench */
export const benchDir = join(here, '..', '..');
/** The repository root. */
export const rootDir = join(benchDir, '..', '..');
/** models/, written by scripts/make_bench_models.py (gitignored). */
export const modelsDir = join(benchDir, 'models');
/** The MiniLM-shaped model folder both libraries read. */
export const modelDir = join(modelsDir, 'minilm-shaped');
export const referenceFile = join(modelDir, 'peer-reference.json');
/** Where scripts/install-onnx.mjs installs transformers.js and ONNX Runtime. */
export const onnxDir = join(benchDir, 'onnx');

/** transformers.js' package folder, symbolic links resolved (so its own onnxruntime-web 1.31-dev resolves beside it). */
export function transformersDir(): string {
  return realpathSync(join(onnxDir, 'node_modules', '@huggingface', 'transformers'));
}

/** onnxruntime-web as transformers.js depends on it (its `dist/` has the wasm files the page serves). */
export function transformersOrtWebDir(): string {
  return realpathSync(join(transformersDir(), '..', '..', 'onnxruntime-web'));
}
