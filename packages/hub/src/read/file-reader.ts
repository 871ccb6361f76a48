/** Progress of a file being read: `loaded` of `total` bytes (`total` unknown without Content-Length). */
export interface LoadProgress {
  readonly file: string;
  readonly loaded: number;
  readonly total: number | undefined;
}

/** Options of one read. */
export interface ReadFileOptions {
  /**
   * The caller cannot go on without this file (`config.json`, `model.safetensors`): an HTML page
   * where it should be is then a `ModelLoadError` saying so (the URL is not the model folder's),
   * not a missing file.
   */
  readonly required?: boolean;
}

/** How the files of a source are read: what every reader of one source kind is given. */
export interface ReadContext {
  /** The loader named in errors. */
  readonly caller: string;
  readonly onProgress?: ((progress: LoadProgress) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Fetches URL sources (the global `fetch` unless the caller gave another). */
  readonly fetch: typeof fetch;
  /** Options of models named by Hugging Face id, as given (defaults from the environment apply when they are read). */
  readonly hub?: import('../hub/hub-options.js').HubOptions | undefined;
}

/** Reads one file of a source, by its path inside the folder; `undefined` if the source has no such file. */
export type FileReader = (name: string, options?: ReadFileOptions) => Promise<Uint8Array | undefined>;
