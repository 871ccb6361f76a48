import { ModelLoadError } from '../model-load-error.js';
import { fetchFollowingRedirects } from './fetch-following-redirects.js';
import type { FileReader, ReadContext } from './file-reader.js';
import { MAX_MODEL_FILE_BYTES } from './max-model-file-bytes.js';

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
 * A reader of the files under a folder URL, fetched relative to it with progress. A 404, or an HTML
 * page (a server that answers every path with its app), reads as a missing file — unless the read
 * says the file is `required`, when an HTML page (by its Content-Type, or a `.json` file that starts
 * with `<`) is a `ModelLoadError` saying the URL is not the model folder's. Any other HTTP error, a
 * broken-off download or one over 2 GiB is a `ModelLoadError` naming the URL.
 *
 * @example
 * const read = urlFilesReader(new URL('https://example.org/models/tiny/'), context);
 */
export function urlFilesReader(base: URL, context: ReadContext): FileReader {
  const { caller, signal, onProgress } = context;
  return async (name, { required = false } = {}) => {
    signal?.throwIfAborted();
    const url = new URL(name, base);
    const response = await fetchFollowingRedirects(url, name, context);
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
