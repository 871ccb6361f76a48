import { checkAbortSignal, checkBoolean, checkFunction, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from './model-load-error.js';
import { hubFilesReader } from './hub/hub-files-reader.js';
import { resolveUrl } from './hub/hub-metadata.js';
import { resolveHubOptions, type HubOptions } from './hub/hub-options.js';
import { checkModelSource, describeSource, hubSourceOf, isFileSet, isUrlSource, type ModelSource } from './model-source.js';
import type { FileReader, LoadProgress, ReadContext, ReadFileOptions } from './read/file-reader.js';
import { givenFilesReader } from './read/read-given-files.js';
import { localFilesReader } from './read/read-local-files.js';
import { urlFilesReader } from './read/read-url-files.js';
import { relativeFolder, subfolderSource } from './subfolder-source.js';

/** Options of {@link modelFiles}. */
export interface ModelFilesOptions {
  /** Told how far each file has been read. */
  readonly onProgress?: ((progress: LoadProgress) => void) | undefined;
  /** Stops reading: a pending or later read rejects with the signal's reason (an `AbortError`). */
  readonly signal?: AbortSignal | undefined;
  /** The loader named in errors. Default `'modelFiles'`. */
  readonly caller?: string | undefined;
  /**
   * Fetches URL sources instead of the global `fetch` (same signature): a caching fetch such as
   * `cachedFetch()`, one with credentials or a proxy, or a mock in tests.
   */
  readonly fetch?: typeof fetch | undefined;
  /** For models named by Hugging Face id: the cache folder, offline mode, token and endpoint (defaults from `HF_*` variables). */
  readonly hub?: HubOptions | undefined;
}

const OPTION_KEYS = ['onProgress', 'signal', 'caller', 'fetch', 'hub'] as const;

/** The files read so far, shared by a folder's reader, its subfolders' and the views other loaders open on it. */
export type ReadCache = Map<string, Promise<Uint8Array | undefined>>;

/**
 * The files of one model folder, read once each: every loader of a folder (the encoder, its
 * tokenizer, a sentence-transformers folder's modules) is given the same `ModelFiles`, so a file two
 * of them need is read (or downloaded) once. Made by {@link modelFiles}. What it has read stays in
 * memory while it is referenced: a loader opens one per load and lets it go.
 *
 * @example
 * const files = modelFiles('./all-MiniLM-L6-v2', { onProgress: (p) => console.log(p.file, p.loaded) });
 * const config = await files.json('config.json');           // Map of the top-level keys, or undefined
 * const pooling = await files.subfolder('1_Pooling').json('config.json');
 */
export class ModelFiles {
  /** The folder, URL or file set this reads. */
  readonly source: ModelSource;
  /** The folder's path inside the one first opened (`''` at the top, `'1_Pooling/'` in a module). */
  readonly prefix: string;
  readonly #context: ReadContext;
  readonly #read: FileReader;
  readonly #cache: ReadCache;

  /** Use {@link modelFiles}, which checks the options first. */
  constructor(source: ModelSource, context: ReadContext, prefix = '', cache: ReadCache = new Map()) {
    checkModelSource(source, 'ModelFiles');
    checkObject(context, { caller: 'ModelFiles', argument: 'context', expected: 'the read options modelFiles() makes (call modelFiles(source, options) instead)' });
    this.source = source;
    this.prefix = prefix;
    this.#context = context;
    this.#cache = cache;
    this.#read = readerOf(source, context);
  }

  /** Where the files are, for messages: the path or URL, or "the given files". */
  get where(): string {
    return describeSource(this.source);
  }

  /** The loader named in errors. */
  get caller(): string {
    return this.#context.caller;
  }

  /**
   * The bytes of file `name` (a path inside the folder), `undefined` if the folder has none. Read
   * once: later calls, from any view of this folder, get the same bytes. `required` makes an HTML
   * page where the file should be an error (see {@link ReadFileOptions}).
   */
  read(name: string, options: ReadFileOptions = {}): Promise<Uint8Array | undefined> {
    try {
      checkReadArguments(name, options, 'ModelFiles.read');
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#context.signal?.aborted === true) return Promise.reject(this.#context.signal.reason);
    const key = `${this.prefix}${name}`;
    const known = this.#cache.get(key);
    // an optional read took an HTML page for a missing file: a required one asks again, to say so
    const reading = known === undefined ? this.#read(name, options) : options.required === true ? known.then((bytes) => bytes ?? this.#read(name, options)) : known;
    this.#cache.set(key, reading);
    reading.catch(() => this.#cache.delete(key)); // a failed read is tried again next time
    return reading;
  }

  /**
   * File `name` parsed as JSON (`undefined` if absent). Throws a `ModelLoadError` naming the file
   * and the folder when it is not valid JSON.
   */
  async json(name: string, options: ReadFileOptions = {}): Promise<unknown> {
    checkReadArguments(name, options, 'ModelFiles.json');
    const bytes = await this.read(name, options);
    if (bytes === undefined) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    } catch (error) {
      throw new ModelLoadError(name, `${name} in ${this.where} is not valid JSON (${(error as Error).message}).`, error, this.caller);
    }
  }

  /**
   * The files of a folder inside this one (a sentence-transformers module such as `1_Pooling`),
   * sharing what has been read. `path` stays inside: no `..`, absolute paths, schemes or (local
   * folders) symbolic links to folders outside — a `ModelLoadError` otherwise.
   */
  subfolder(path: string): ModelFiles {
    const relative = relativeFolder(path);
    if (relative === '') return this;
    return new ModelFiles(subfolderSource(this.source, relative), this.#context, `${this.prefix}${relative}/`, this.#cache);
  }

  /** A view of the same folder and the same read files, with other options (a loader's own caller, signal, progress). */
  with(options: ModelFilesOptions): ModelFiles {
    return new ModelFiles(this.source, contextOf(options, this.#context), this.prefix, this.#cache);
  }
}

/** The reader of a source's kind: given files, a Hub model (the cache in Node, resolve URLs in a browser), a URL, a local folder. */
function readerOf(source: ModelSource, context: ReadContext): FileReader {
  if (isFileSet(source)) return givenFilesReader(source.files, context);
  const hubSource = hubSourceOf(source);
  if (hubSource !== undefined) {
    const hub = resolveHubOptions(context.hub, context.caller);
    if (hub.cacheDir !== undefined) return hubFilesReader(hubSource, hub, context);
    return urlFilesReader(resolveUrl(hub.endpoint, hubSource, hubSource.revision ?? 'main', ''), context); // a browser: the Hub's resolve URLs (cachedFetch keeps them)
  }
  const text = String(source);
  if (isUrlSource(text)) return urlFilesReader(new URL(text.replace(/\/?$/, '/'), typeof location === 'undefined' ? undefined : location.href), context);
  return localFilesReader(text, context);
}

function contextOf(options: ModelFilesOptions, inherited?: ReadContext): ReadContext {
  const caller = options.caller ?? inherited?.caller ?? 'modelFiles';
  checkFunction(options.fetch, { caller, argument: 'fetch', expected: 'a function with the signature of the global fetch (such as cachedFetch())' });
  checkFunction(options.onProgress, { caller, argument: 'onProgress' });
  checkAbortSignal(options.signal, { caller });
  const onProgress = options.onProgress ?? inherited?.onProgress;
  const signal = options.signal ?? inherited?.signal;
  const hub = options.hub ?? inherited?.hub;
  return { caller, fetch: options.fetch ?? inherited?.fetch ?? ((input, init) => globalThis.fetch(input, init)), ...(onProgress === undefined ? {} : { onProgress }), ...(signal === undefined ? {} : { signal }), ...(hub === undefined ? {} : { hub }) };
}

/**
 * Opens the files of a model source: a local folder (Node), a URL (fetched relative to the folder
 * URL with `options.fetch`, default the global `fetch`), or `{ files }`. Given a `ModelFiles`
 * already, returns a view of it that shares what it has read (the options given here apply to the
 * reads made through the view; those not given are the opened one's). Every failure is a
 * `ModelLoadError` naming the file and where it was read: an HTTP status with its URL, a network
 * error, a redirect to another scheme than http(s) or more than 10 redirects, an unreadable file,
 * a file over 2 GiB. A 404 (or an HTML page for an optional file) reads as a missing file. The
second argument is the options, or just an `onProgress` callback.
 *
 * @example
 * const files = modelFiles('https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/', { fetch: cachedFetch() });
 * const weights = await files.read('model.safetensors', { required: true }); // Uint8Array
 */
export function modelFiles(source: ModelSource | ModelFiles, given: ModelFilesOptions | ((progress: LoadProgress) => void) = {}): ModelFiles {
  const options = typeof given === 'function' ? { onProgress: given } : given;
  const caller = typeof options === 'object' && options !== null && typeof options.caller === 'string' ? options.caller : 'modelFiles';
  checkOptionKeys(options, OPTION_KEYS, caller);
  if (options.caller !== undefined && (typeof options.caller !== 'string' || options.caller === '')) throw new InvalidArgumentError({ caller, argument: 'caller', expected: 'the name of the calling function (for messages)', received: describeValue(options.caller) });
  if (options.hub !== undefined) resolveHubOptions(options.hub, caller); // checked for every source, not only the Hub ids that use it
  if (source instanceof ModelFiles) return source.with(options);
  checkModelSource(source, caller);
  return new ModelFiles(source, contextOf(options));
}

/** A file name (a non-empty string) and read options `{ required? }`: a typed error naming `caller` otherwise. */
function checkReadArguments(name: unknown, options: unknown, caller: string): void {
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError({ caller, argument: 'name', expected: 'a file name inside the folder (a non-empty string)', received: describeValue(name) });
  const { required } = checkOptionKeys(options as ReadFileOptions, ['required'], caller);
  checkBoolean(required, { caller, argument: 'required', fallback: false });
}

/**
 * `files` when it is a {@link ModelFiles} (what `modelFiles()` returns); a typed error naming
 * `caller` otherwise.
 *
 * @example
 * checkModelFiles(files, 'readCheckpoint');
 */
export function checkModelFiles(files: unknown, caller: string): ModelFiles {
  if (!(files instanceof ModelFiles)) throw new InvalidArgumentError({ caller, argument: 'files', expected: 'the files of a model folder (modelFiles(source))', received: describeValue(files) });
  return files;
}
