import { AttnkitError } from '@attnkit/errors';
import type { CallBackend } from '@attnkit/backends';
import { ModelLoadError, type ModelFiles } from '@attnkit/hub';

/**
 * Step 3 of every model load: once the backend has settled and the load was not aborted, `build`
 * runs on the load's backend. A typed error of the build (a state dict that does not fit) becomes a
 * `ModelLoadError` saying that model.safetensors does not match config.json; a `ModelLoadError` passes
 * as it is.
 *
 * @example
 * const model = await buildOnBackend(files, backend, options.signal, () => new LlamaForCausalLM(config, checkpoint));
 */
export async function buildOnBackend<M>(files: ModelFiles, backend: CallBackend, signal: AbortSignal | undefined, build: () => M): Promise<M> {
  await backend.settled();
  signal?.throwIfAborted();
  try {
    return backend.run(build);
  } catch (error) {
    if (error instanceof ModelLoadError) throw error;
    if (error instanceof AttnkitError) throw new ModelLoadError('model.safetensors', `model.safetensors in ${files.where} does not match config.json: ${error.message}`, error, files.caller);
    throw error;
  }
}
