import { nodeBuiltin } from '@attnkit/backends';
import { ModelLoadError } from './model-load-error.js';

/** Where a Hugging Face model folder comes from: a local folder (Node), a URL, or its files. */
export type ModelSource = string | URL | { readonly files: Readonly<Record<string, ArrayBuffer | Uint8Array | string | Blob>> };

/** Progress of a file being read: `loaded` of `total` bytes (`total` unknown without Content-Length). */
export interface LoadProgress {
  readonly file: string;
  readonly loaded: number;
  readonly total: number | undefined;
}

/** Reads one file of a model source; `undefined` if the source has no such file. */
export type FileReader = (name: string) => Promise<Uint8Array | undefined>;

function isUrl(source: string | URL): boolean {
  return source instanceof URL || /^(https?:|blob:|data:)/.test(source) || (typeof document !== 'undefined' && !/^[A-Za-z]:[\\/]/.test(source));
}

/**
 * A reader for the files of a model source. Local folders need Node; URLs are fetched relative
 * to the folder URL, with progress (a 404, or an HTML page where a model file should be, reads as
 * a missing file).
 *
 * @example
 * const read = modelFiles('./models/tiny', (p) => console.log(p.file, p.loaded));
 * const config = await read('config.json');
 */
export function modelFiles(source: ModelSource, onProgress?: (progress: LoadProgress) => void): FileReader {
  if (typeof source === 'object' && !(source instanceof URL)) {
    return async (name) => {
      const file = source.files[name];
      if (file === undefined) return undefined;
      const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file instanceof Uint8Array ? file : file instanceof ArrayBuffer ? new Uint8Array(file) : new Uint8Array(await file.arrayBuffer());
      onProgress?.({ file: name, loaded: bytes.length, total: bytes.length });
      return bytes;
    };
  }
  if (isUrl(source)) {
    const base = new URL(String(source).replace(/\/?$/, '/'), typeof location === 'undefined' ? undefined : location.href);
    return async (name) => {
      const response = await fetch(new URL(name, base));
      // a missing file; a server that answers every path with its HTML page (a single-page app) has none either
      if (response.status === 404 || (response.ok && /^text\/html\b/i.test(response.headers.get('content-type') ?? ''))) return undefined;
      if (!response.ok || response.body === null) throw new ModelLoadError(name, `${name}: HTTP ${response.status} from ${new URL(name, base).href}.`);
      const total = Number(response.headers.get('content-length')) || undefined;
      const chunks: Uint8Array[] = [];
      let loaded = 0;
      for (const reader = response.body.getReader(); ; ) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded += value.length;
        onProgress?.({ file: name, loaded, total });
      }
      const bytes = new Uint8Array(loaded);
      let at = 0;
      for (const chunk of chunks) (bytes.set(chunk, at), (at += chunk.length));
      return bytes;
    };
  }
  return async (name) => {
    const { readFile, stat } = nodeBuiltin('node:fs/promises');
    const { join } = nodeBuiltin('node:path');
    const path = join(String(source), name);
    try {
      const info = await stat(path);
      onProgress?.({ file: name, loaded: 0, total: info.size });
      const bytes = new Uint8Array(await readFile(path));
      onProgress?.({ file: name, loaded: bytes.length, total: info.size });
      return bytes;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw new ModelLoadError(name, `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}.`, error);
    }
  };
}

/**
 * The source of a folder inside `source` (a sentence-transformers module folder such as
 * `1_Pooling`, or a Transformer saved in `0_Transformer`). `path` is relative and stays inside:
 * no `..`, `.`, empty or absolute segments, no scheme; anything else is a `ModelLoadError`.
 *
 * @example
 * const pooling = modelFiles(subfolderSource('./all-MiniLM-L6-v2', '1_Pooling'));
 */
export function subfolderSource(source: ModelSource, path: string): ModelSource {
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
  return `${String(source).replace(/[\\/]+$/, '')}/${relative}`;
}
