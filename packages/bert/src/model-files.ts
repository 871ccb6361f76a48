import { nodeBuiltin } from '@attnkit/backends';
import { ModelLoadError } from './model-load-error.js';
import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/** The largest model file attnkit reads (2 GiB: Node's readFile limit, and more than any encoder it builds). */
export const MAX_MODEL_FILE_BYTES = 2 ** 31 - 1;

/** Where a Hugging Face model folder comes from: a local folder (Node), a URL, or its files. */
export type ModelSource = string | URL | { readonly files: Readonly<Record<string, ArrayBuffer | Uint8Array | string | Blob>> };

/** Progress of a file being read: `loaded` of `total` bytes (`total` unknown without Content-Length). */
export interface LoadProgress {
  readonly file: string;
  readonly loaded: number;
  readonly total: number | undefined;
}

/** Options of one {@link FileReader} call. */
export interface ReadFileOptions {
  /**
   * The caller cannot go on without this file (`config.json`, `model.safetensors`): an HTML page
   * where it should be is then a `ModelLoadError` saying so (the URL is not the model folder's),
   * not a missing file.
   */
  readonly required?: boolean;
}

/** Reads one file of a model source; `undefined` if the source has no such file. */
export type FileReader = (name: string, options?: ReadFileOptions) => Promise<Uint8Array | undefined>;

function isUrl(source: string | URL): boolean {
  return source instanceof URL || /^(https?:|blob:|data:)/.test(source) || (typeof document !== 'undefined' && !/^[A-Za-z]:[\\/]/.test(source));
}

/**
 * Throws a `ModelLoadError` unless `source` is a model source: a non-empty path or URL string, a
 * `URL`, or `{ files }` (an object of file name → contents).
 *
 * @example
 * checkModelSource(undefined, 'loadEncoder'); // ModelLoadError: loadEncoder: the model source must be ...
 */
export function checkModelSource(source: unknown, caller: string): asserts source is ModelSource {
  const files = (source as { files?: unknown } | null)?.files;
  const ok = (typeof source === 'string' && source !== '') || source instanceof URL || (typeof source === 'object' && source !== null && typeof files === 'object' && files !== null && !Array.isArray(files));
  if (!ok) throw new ModelLoadError('', `the model source must be a folder path or URL (a non-empty string), a URL object, or { files: { 'config.json': ..., ... } }; received ${describeValue(source)}.`, undefined, caller);
}

/** Options of {@link modelFiles}. */
export interface ModelFilesOptions {
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Stops reading: a pending or later read rejects with the signal's reason (an `AbortError`). */
  readonly signal?: AbortSignal;
  /** The loader named in errors. Default `'loadBert'`. */
  readonly caller?: string;
  /**
   * Fetches URL sources instead of the global `fetch` (same signature): a caching fetch such as
   * `cachedFetch()`, one with credentials or a proxy, or a mock in tests.
   */
  readonly fetch?: typeof fetch;
}

const MAX_REDIRECTS = 10;
const isNode = () => typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string' && typeof document === 'undefined';

/** A fetch that names the URL in every failure, and (in Node, where redirects can be seen) follows only http(s) redirects. */
async function fetchFile(url: URL, name: string, signal: AbortSignal | undefined, caller: string, fetcher: typeof fetch): Promise<Response> {
  const fail = (message: string, cause?: unknown): never => {
    throw new ModelLoadError(name, message, cause, caller);
  };
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response | undefined;
    try {
      response = await fetcher(current, { redirect: isNode() ? 'manual' : 'follow', ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      const cause = (error as { cause?: { message?: string; code?: string } }).cause;
      fail(`${name}: cannot fetch ${current.href} (${(error as Error).message}${cause?.code ?? cause?.message ? `: ${cause.code ?? cause.message}` : ''}; a network error, or a redirect the runtime refused).`, error);
    }
    const r = response as Response;
    if (r.status < 300 || r.status >= 400 || r.type === 'opaqueredirect') return r;
    const location = r.headers.get('location');
    if (location === null) return r;
    let next: URL | undefined;
    try {
      next = new URL(location, current);
    } catch (error) {
      fail(`${name}: ${current.href} redirects to ${JSON.stringify(location.slice(0, 200))}, which is not a URL.`, error);
    }
    const target = next as URL;
    if (target.protocol !== 'https:' && target.protocol !== 'http:') fail(`${name}: ${current.href} redirects to ${target.href.slice(0, 200)}; only http(s) redirects are followed.`);
    if (hop + 1 >= MAX_REDIRECTS) fail(`${name}: more than ${MAX_REDIRECTS} redirects from ${url.href} (last: ${target.href.slice(0, 200)}).`);
    current = target;
  }
}

/** An HTML page where a file should be: what a web server sends for a path that is not a file (its app, a sign-in or a listing page). */
function htmlPageError(name: string, url: URL, base: URL, caller: string): ModelLoadError {
  return new ModelLoadError(name, `${name} at ${url.href} is an HTML page, not ${name.endsWith('.json') ? 'JSON' : 'the model file'}: is ${base.href} the model folder's URL? A Hugging Face model's files are at https://huggingface.co/<id>/resolve/main/.`, undefined, caller);
}

/** The first byte that is not white space (or a byte order mark) is `<`: markup, never JSON. */
function startsWithMarkup(bytes: Uint8Array): boolean {
  const at = bytes.findIndex((b, i) => !(b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || (i < 3 && (b === 0xef || b === 0xbb || b === 0xbf))));
  return at >= 0 && bytes[at] === 0x3c;
}

/**
 * A reader for the files of a model source. Local folders need Node; URLs are fetched (with
 * `options.fetch`, default the global `fetch`) relative to the folder URL, with progress: a 404,
 * or an HTML page where a model file should be, reads as a missing file — unless the call says
 * the file is `required`, when an HTML page (by its Content-Type, or a `.json` file that starts
 * with `<`) is a `ModelLoadError` saying the URL is not the model folder's. Every failure is a `ModelLoadError` naming the file and where it was read:
 * an HTTP status with its URL, a network error, a redirect to another scheme (`file:`, `data:`)
 * or more than 10 redirects, an unreadable file. The second argument is the options, or just an
 * `onProgress` callback.
 *
 * @example
 * const read = modelFiles('./models/tiny', { onProgress: (p) => console.log(p.file, p.loaded) });
 * const config = await read('config.json', { required: true });
 */
export function modelFiles(source: ModelSource, options: ModelFilesOptions | ((progress: LoadProgress) => void) = {}): FileReader {
  checkModelSource(source, typeof options === 'object' && options !== null && typeof options.caller === 'string' ? options.caller : 'modelFiles');
  const { onProgress, signal, caller = 'loadBert', fetch: custom } = typeof options === 'function' ? { onProgress: options } : options;
  if (custom !== undefined && typeof custom !== 'function') throw new InvalidArgumentError({ caller, argument: 'fetch', expected: 'a function with the signature of the global fetch (such as cachedFetch())', received: describeValue(custom) });
  if (typeof source === 'object' && !(source instanceof URL)) {
    return async (name) => {
      signal?.throwIfAborted();
      const file = Object.hasOwn(source.files, name) ? source.files[name] : undefined;
      if (file === undefined) return undefined;
      const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file instanceof Uint8Array ? file : file instanceof ArrayBuffer ? new Uint8Array(file) : new Uint8Array(await file.arrayBuffer());
      onProgress?.({ file: name, loaded: bytes.length, total: bytes.length });
      return bytes;
    };
  }
  if (isUrl(source)) {
    const base = new URL(String(source).replace(/\/?$/, '/'), typeof location === 'undefined' ? undefined : location.href);
    return async (name, { required = false } = {}) => {
      signal?.throwIfAborted();
      const url = new URL(name, base);
      const response = await fetchFile(url, name, signal, caller, custom ?? globalThis.fetch);
      // a missing file; a server that answers every path with its HTML page (a single-page app) has none either
      const html = response.ok && /^text\/html\b/i.test(response.headers.get('content-type') ?? '');
      if (html && required) {
        void response.body?.cancel();
        throw htmlPageError(name, url, base, caller);
      }
      if (response.status === 404 || html) return undefined;
      if (!response.ok || response.body === null) throw new ModelLoadError(name, `${name}: HTTP ${response.status} from ${url.href}.`, undefined, caller);
      const total = Number(response.headers.get('content-length')) || undefined;
      const chunks: Uint8Array[] = [];
      let loaded = 0;
      try {
        for (const reader = response.body.getReader(); ; ) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          loaded += value.length;
          if (loaded > MAX_MODEL_FILE_BYTES) {
            void reader.cancel();
            throw new ModelLoadError(name, `${name}: the download from ${url.href} passed ${MAX_MODEL_FILE_BYTES} bytes (2 GiB), more than attnkit reads for one model file.`, undefined, caller);
          }
          onProgress?.({ file: name, loaded, total });
        }
      } catch (error) {
        if (signal?.aborted === true) throw signal.reason;
        if (error instanceof ModelLoadError) throw error;
        throw new ModelLoadError(name, `${name}: the download from ${url.href} broke off after ${loaded} bytes (${(error as Error).message}).`, error, caller);
      }
      const bytes = new Uint8Array(loaded);
      let at = 0;
      for (const chunk of chunks) (bytes.set(chunk, at), (at += chunk.length));
      if (required && name.endsWith('.json') && startsWithMarkup(bytes)) throw htmlPageError(name, url, base, caller);
      return bytes;
    };
  }
  return async (name) => {
    signal?.throwIfAborted();
    const { readFile, stat } = nodeBuiltin('node:fs/promises');
    const { join } = nodeBuiltin('node:path');
    const path = join(String(source), name);
    try {
      const info = await stat(path); // follows links (the Hugging Face cache links its files)
      if (!info.isFile()) throw new ModelLoadError(name, `${path} is not a regular file (a ${info.isDirectory() ? 'folder' : 'device, pipe or socket'}); a model file must be one.`, undefined, caller);
      if (info.size > MAX_MODEL_FILE_BYTES) throw new ModelLoadError(name, `${path} has ${info.size} bytes, more than the ${MAX_MODEL_FILE_BYTES} (2 GiB) attnkit reads for one model file.`, undefined, caller);
      onProgress?.({ file: name, loaded: 0, total: info.size });
      const bytes = new Uint8Array(await readFile(path, signal === undefined ? {} : { signal }));
      onProgress?.({ file: name, loaded: bytes.length, total: info.size });
      return bytes;
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (error instanceof ModelLoadError) throw error;
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw new ModelLoadError(name, `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}.`, error, caller);
    }
  };
}

/** For a local folder (Node): the real path of `inside` must be within the real path of `root` (no symlinked folder out). */
function checkInsideRealFolder(root: string, inside: string, path: string): void {
  const { realpathSync } = nodeBuiltin('node:fs');
  const { relative, isAbsolute } = nodeBuiltin('node:path');
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(inside);
  } catch {
    return; // missing: the reads will say so
  }
  const rel = relative(realRoot, real);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ModelLoadError('modules.json', `module path ${JSON.stringify(path)} is a symbolic link to ${real}, outside the model folder ${realRoot}; a folder's modules must be inside it.`, undefined, 'subfolderSource');
  }
}

/**
 * The source of a folder inside `source` (a sentence-transformers module folder such as
 * `1_Pooling`, or a Transformer saved in `0_Transformer`). `path` is relative and stays inside:
 * no `..`, `.`, empty or absolute segments, no scheme, and (local folders) no symbolic link to a
 * folder outside; anything else is a `ModelLoadError`. Symbolic links to files (as in the Hugging
 * Face cache, whose snapshot files link to its blobs) are followed.
 *
 * @example
 * const pooling = modelFiles(subfolderSource('./all-MiniLM-L6-v2', '1_Pooling'));
 */
export function subfolderSource(source: ModelSource, path: string): ModelSource {
  checkModelSource(source, 'subfolderSource');
  if (typeof path !== 'string') throw new ModelLoadError('modules.json', `module path must be a string; received ${describeValue(path)}.`, undefined, 'subfolderSource');
  const segments = path.split('/').filter((s, i, all) => !(s === '' && i === all.length - 1)); // a trailing slash is fine
  if (path === '' || segments.length === 0) return source;
  if (segments.some((s) => !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(s) || s === '..')) {
    throw new ModelLoadError('modules.json', `module path ${JSON.stringify(path)} must be a relative folder inside the model folder (letters, digits, _ . -; no "..", absolute paths or schemes).`, undefined, 'subfolderSource');
  }
  const relative = segments.join('/');
  if (typeof source === 'object' && !(source instanceof URL)) {
    const prefix = `${relative}/`;
    return { files: Object.fromEntries(Object.entries(source.files).filter(([name]) => name.startsWith(prefix)).map(([name, file]) => [name.slice(prefix.length), file])) };
  }
  if (source instanceof URL || isUrl(source)) return new URL(`${relative}/`, new URL(String(source).replace(/\/?$/, '/'), typeof location === 'undefined' ? undefined : location.href));
  const inside = `${String(source).replace(/[\\/]+$/, '')}/${relative}`;
  if (isNode()) checkInsideRealFolder(String(source), inside, path);
  return inside;
}
