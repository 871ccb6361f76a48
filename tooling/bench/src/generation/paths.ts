import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelsDir } from '../peer/paths.js';

/** A generation model's folder (scripts/make_generation_models.py). */
export function generationModelDir(model: string): string {
  return join(modelsDir, model);
}

/** generation-reference.json: the prompts, PyTorch's greedy tokens, the ONNX checks. */
export interface GenerationReference {
  readonly parameters: number;
  readonly prompts: number[][];
  readonly newTokens: number;
  readonly torchGreedy: number[][];
  readonly torchGreedyMinMargin: number[];
  readonly onnxChecks: Record<string, Record<string, number | boolean | number[]>>;
  readonly files: Record<string, number>;
  readonly versions: Record<string, string>;
}

export function readGenerationReference(model: string): GenerationReference {
  return JSON.parse(readFileSync(join(generationModelDir(model), 'generation-reference.json'), 'utf8')) as GenerationReference;
}

/** The model's config.json. */
export function readModelConfig(model: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(generationModelDir(model), 'config.json'), 'utf8')) as Record<string, unknown>;
}
