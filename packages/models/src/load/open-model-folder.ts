import { checkBoolean, checkFunction, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { callBackend, ensureBackend, type CallBackend } from '@attnkit/backends';
import { modelFiles, type HubOptions, type LoadProgress, type ModelFiles, type ModelSource } from '@attnkit/hub';

/** The options every model loader takes (`loadEncoder`, `loadCausalLM`, ...). */
export interface LoadModelOptions {
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Told about tensors that are skipped on purpose (heads the model does not have) and about int8 folders. */
  readonly onNotice?: (message: string) => void;
  /** Stops the load: it rejects with the signal's reason (an `AbortError`), leaving no tensor behind. */
  readonly signal?: AbortSignal;
  /** Refuse weights holding NaN or ±Infinity (a `ModelLoadError` naming the tensors); off by default, it reads every value once. */
  readonly checkFinite?: boolean;
  /** The (initialised) backend the weights are made on. Default: the backend active when the call is made, kept however the global backend changes while the files are read. */
  readonly backend?: string;
  /** Fetches URL sources instead of the global `fetch` (same signature), e.g. `cachedFetch()` to keep the files in the browser's Cache API. */
  readonly fetch?: typeof fetch;
  /** For a model named by Hugging Face id (`'org/name'`): the cache folder, offline mode, token and endpoint (defaults: the `HF_*` variables, as Python's). */
  readonly hub?: HubOptions;
  /** `'int8'`: an int8 inference model, every `Linear` an `Int8Linear` of `@attnkit/nn` (see `LoadEncoderOptions.quantize`). Default: float32. */
  readonly quantize?: 'int8';
}

/** The keys of {@link LoadModelOptions}: another is a typed error, never ignored. */
export const LOAD_MODEL_OPTION_KEYS = ['onProgress', 'onNotice', 'signal', 'checkFinite', 'backend', 'fetch', 'hub', 'quantize'] as const;

/**
 * Step 0 of every model load: the options checked (a misspelled option is an error; `quantize` is
 * `'int8'` or absent), the folder opened for reading (`modelFiles`: a path, URL, Hugging Face id,
 * `{ files }` or a `ModelFiles`), and the backend the weights will be made on captured — wasm in
 * Node when nothing was chosen, not tfjs' slow pure-JavaScript cpu.
 *
 * @example
 * const { files, backend } = await openModelFolder('./SmolLM2-135M', options, 'loadCausalLM');
 */
export async function openModelFolder(source: ModelSource | ModelFiles, options: LoadModelOptions, caller: string): Promise<{ files: ModelFiles; backend: CallBackend }> {
  checkObject(options, { caller, argument: 'options', expected: 'an object of load options' });
  checkOptionKeys(options, LOAD_MODEL_OPTION_KEYS, caller);
  checkFunction(options.onNotice, { caller, argument: 'onNotice' });
  checkBoolean(options.checkFinite, { caller, argument: 'checkFinite', fallback: false });
  if (options.backend !== undefined && typeof options.backend !== 'string') throw new InvalidArgumentError({ caller, argument: 'backend', expected: "the name of an initialised backend ('cpu', 'wasm', 'webgl', 'webgpu')", received: describeValue(options.backend) });
  if (options.quantize !== undefined && options.quantize !== 'int8') throw new InvalidArgumentError({ caller, argument: 'quantize', expected: "'int8' (or absent for float32 weights)", received: describeValue(options.quantize) });
  const files = modelFiles(source, { caller, onProgress: options.onProgress, signal: options.signal, fetch: options.fetch, hub: options.hub });
  if (options.backend === undefined) await ensureBackend(caller);
  return { files, backend: callBackend(caller, options.backend) };
}
