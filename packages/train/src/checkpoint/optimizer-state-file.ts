import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import type { AdamWParameterState, AdamWState } from '../optim/adamw.js';
import { CheckpointError } from './checkpoint-error.js';

/**
 * An {@link AdamWState} as `optimizer.safetensors`: each parameter's moments as
 * `<name>.exp_avg` and `<name>.exp_avg_sq` (PyTorch's state names), the step counts and the
 * learning rate in the metadata.
 *
 * @example
 * await writeFile('optimizer.safetensors', optimizerStateFile(await optimizer.exportState()));
 */
export function optimizerStateFile(state: AdamWState): Uint8Array {
  const tensors: Record<string, { shape: readonly number[]; values: Float32Array }> = {};
  const steps: Record<string, number> = {};
  for (const [name, entry] of Object.entries(state.parameters)) {
    tensors[`${name}.exp_avg`] = { shape: entry.expAvg.shape, values: entry.expAvg.values as Float32Array };
    tensors[`${name}.exp_avg_sq`] = { shape: entry.expAvgSq.shape, values: entry.expAvgSq.values as Float32Array };
    steps[name] = entry.step;
  }
  return writeSafetensors(tensors, { format: 'attnkit-adamw', step: String(state.step), learning_rate: String(state.learningRate), parameter_steps: JSON.stringify(steps) });
}

/** The {@link AdamWState} of an `optimizer.safetensors` written by {@link optimizerStateFile}. */
export function readOptimizerStateFile(bytes: Uint8Array, folder: string, caller = 'trainSentenceEncoder'): AdamWState {
  const fail = (what: string, cause?: unknown): never => {
    throw new CheckpointError(caller, folder, `${folder}/optimizer.safetensors ${what}.`, cause);
  };
  let file: ReturnType<typeof readSafetensors> | undefined;
  try {
    file = readSafetensors(bytes);
  } catch (error) {
    fail(`cannot be read (${(error as Error).message})`, error);
  }
  const { tensors, metadata } = file!;
  if (metadata['format'] !== 'attnkit-adamw') fail(`has format ${JSON.stringify(metadata['format'])}; expected "attnkit-adamw"`);
  let steps: Record<string, number> = {};
  try {
    steps = JSON.parse(metadata['parameter_steps'] ?? '') as Record<string, number>;
  } catch (error) {
    fail('has no parameter_steps metadata', error);
  }
  const parameters: Record<string, AdamWParameterState> = {};
  for (const [name, step] of Object.entries(steps)) {
    const expAvg = tensors.get(`${name}.exp_avg`);
    const expAvgSq = tensors.get(`${name}.exp_avg_sq`);
    if (expAvg === undefined || expAvgSq === undefined) fail(`lacks the moments of ${name}`);
    parameters[name] = { step, expAvg: { shape: expAvg!.shape, values: expAvg!.values }, expAvgSq: { shape: expAvgSq!.shape, values: expAvgSq!.values } };
  }
  return { step: Number(metadata['step']), learningRate: Number(metadata['learning_rate']), parameters };
}
