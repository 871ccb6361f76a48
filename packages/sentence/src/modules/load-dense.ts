import type { CallBackend } from '@attnkit/backends';
import { ModelLoadError, nonFiniteTensors, readSafetensors, type ModelFiles } from '@attnkit/hub';
import { Dense, type DenseConfig } from './dense.js';

/** Where {@link loadDense} reads and makes a Dense module. */
export interface LoadDenseOptions {
  /** The backend the weights are made on. */
  readonly backend: CallBackend;
  /** Refuse weights holding NaN or ±Infinity. */
  readonly checkFinite?: boolean | undefined;
}

/**
 * The Dense module at `path` of a sentence-transformers folder: its `model.safetensors` (F32, F16
 * or BF16) read from the folder's `files` and loaded strictly on `backend`. A missing or malformed
 * file, an int8 (I8) tensor, non-finite weights (with `checkFinite`) or weights that do not fit the
 * module's config.json are `ModelLoadError`s naming the file.
 *
 * @example
 * const dense = await loadDense(files, '2_Dense', folder.modules[0].config, { backend: callBackend('load') });
 */
export async function loadDense(files: ModelFiles, path: string, config: DenseConfig, { backend, checkFinite = false }: LoadDenseOptions): Promise<Dense> {
  const file = `${path.replace(/\/$/, '')}/model.safetensors`;
  const fail = (message: string, cause?: unknown): never => {
    throw new ModelLoadError(file, `${file} ${message}`, cause, files.caller);
  };
  const bytes = await files.subfolder(path).read('model.safetensors');
  if (bytes === undefined) fail(`is missing in ${files.where} (the Dense module's weights; pytorch_model.bin is not read).`);
  let tensors: ReturnType<typeof readSafetensors>['tensors'] | undefined;
  try {
    tensors = readSafetensors(bytes as Uint8Array).tensors; // I8 widened (and refused below)
  } catch (error) {
    fail(`in ${files.where}: ${(error as Error).message}`, error);
  }
  const weights = tensors as NonNullable<typeof tensors>;
  const int8 = [...weights].filter(([, t]) => t.dtype === 'I8').map(([name]) => name);
  if (int8.length > 0) fail(`in ${files.where} holds int8 (I8) tensors (${int8.slice(0, 2).join(', ')}); Dense modules are read as float32 (F32, F16 or BF16) — an int8 folder quantizes the encoder only.`);
  const bad = checkFinite ? nonFiniteTensors(weights) : [];
  if (bad.length > 0) fail(`in ${files.where} has non-finite weights (checkFinite): ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? `; and ${bad.length - 3} more tensors` : ''}.`);
  await backend.settled();
  try {
    return backend.run(() => new Dense(config, weights));
  } catch (error) {
    return fail(`in ${files.where} does not match its config.json: ${(error as Error).message}`, error);
  }
}
