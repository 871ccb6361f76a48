import { nodeBuiltin } from '@attnkit/errors';
import { ModelLoadError } from '../model-load-error.js';
import type { LoadProgress } from '../read/file-reader.js';
import { MAX_MODEL_FILE_BYTES } from '../read/max-model-file-bytes.js';
import type { HubCacheEntry } from './hub-cache.js';
import { allowedRedirect, hubHeaders } from './hub-metadata.js';
import type { ResolvedHubOptions } from './hub-options.js';

/** What {@link downloadBlob} needs besides the blob. */
export interface DownloadBlobOptions {
  readonly caller: string;
  /** The file's name in messages and progress. */
  readonly file: string;
  readonly fetch: typeof globalThis.fetch;
  readonly hub: ResolvedHubOptions;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: LoadProgress) => void) | undefined;
}

/** Downloads under way in this process, by blob path: two loads of one model share one download. */
const pending = new Map<string, Promise<void>>();
/** A lock whose holder has not written for this long is taken over (a process that died mid-download). */
const STALE_LOCK_MS = 60_000;
const MAX_REDIRECTS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes sure `blobs/<etag>` of `entry` holds the file at `url`: nothing to do when it does; else the
 * file is downloaded into `blobs/<etag>.incomplete` — resumed with a `Range` request when an earlier
 * download broke off — checked against `size`, and renamed into place, so a blob is either complete
 * or absent. Another process downloading the same blob holds `.locks/…/<etag>.lock`: this waits for
 * it (taking the lock over when its holder stopped writing for a minute); in one process, two calls
 * share one download. Redirects are followed to https only (or the endpoint's own origin); the token
 * goes to the endpoint only. A broken-off download is a `ModelLoadError` saying a new call resumes it.
 *
 * @example
 * await downloadBlob(entry, meta.etag, meta.url, meta.size, { caller: 'loadEncoder', file: 'model.safetensors', fetch, hub });
 */
export function downloadBlob(entry: HubCacheEntry, etag: string, url: URL, size: number | undefined, options: DownloadBlobOptions): Promise<void> {
  const blob = entry.blob(etag);
  const running = pending.get(blob);
  if (running !== undefined) return running;
  const download = locked(entry, etag, () => fetchInto(blob, url, size, options), options).finally(() => pending.delete(blob));
  pending.set(blob, download);
  return download;
}

/** Runs `work` holding the blob's lock file, unless the blob appears meanwhile. */
async function locked(entry: HubCacheEntry, etag: string, work: () => Promise<void>, { signal }: DownloadBlobOptions): Promise<void> {
  const { existsSync, mkdirSync, openSync, closeSync, statSync, rmSync } = nodeBuiltin('node:fs');
  const { join } = nodeBuiltin('node:path');
  const blob = entry.blob(etag);
  mkdirSync(entry.locks, { recursive: true });
  const lock = join(entry.locks, `${etag}.lock`);
  for (;;) {
    if (existsSync(blob)) return;
    signal?.throwIfAborted();
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const written = Math.max(...[lock, `${blob}.incomplete`].map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
      if (Date.now() - written > STALE_LOCK_MS) rmSync(lock, { force: true }); // its holder stopped: take it over
      else await sleep(100);
    }
  }
  try {
    if (!existsSync(blob)) await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Downloads `url` into `<blob>.incomplete` (resuming it), then renames it to `blob`. */
async function fetchInto(blob: string, url: URL, size: number | undefined, { caller, file, fetch, hub, signal, onProgress }: DownloadBlobOptions): Promise<void> {
  const { existsSync, mkdirSync, statSync, renameSync, rmSync, openSync, writeSync, closeSync } = nodeBuiltin('node:fs');
  const { dirname } = nodeBuiltin('node:path');
  const fail = (message: string, cause?: unknown): never => {
    throw new ModelLoadError(file, message, cause, caller);
  };
  if (size !== undefined && size > MAX_MODEL_FILE_BYTES) fail(`${file} has ${size} bytes, more than the ${MAX_MODEL_FILE_BYTES} (2 GiB) attnkit reads for one model file.`);
  mkdirSync(dirname(blob), { recursive: true });
  const incomplete = `${blob}.incomplete`;
  let offset = existsSync(incomplete) ? statSync(incomplete).size : 0;
  if (size !== undefined && offset > size) (rmSync(incomplete), (offset = 0));
  let target = url;
  let response: Response | undefined;
  for (let hop = 0; ; hop++) {
    try {
      response = await fetch(target, { redirect: 'manual', headers: hubHeaders(target, hub, offset > 0 ? { range: `bytes=${offset}-` } : {}), ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      fail(`${file}: cannot fetch ${target.origin}${target.pathname} (${(error as Error).message}).`, error);
    }
    const r = response as Response;
    const location = r.headers.get('location');
    if (r.status < 300 || r.status >= 400 || location === null) break;
    const next = new URL(location, target);
    if (!allowedRedirect(next, hub)) fail(`${file}: ${target.origin} redirects to ${next.origin}, which is not https; not followed.`);
    if (hop + 1 >= MAX_REDIRECTS) fail(`${file}: more than ${MAX_REDIRECTS} redirects.`);
    target = next;
  }
  const r = response as Response;
  if (r.status === 416 && size !== undefined && offset === size) {
    renameSync(incomplete, blob); // the earlier download had every byte
    return;
  }
  if (!(r.status === 200 || r.status === 206) || r.body === null) fail(`${file}: HTTP ${r.status} from ${target.origin} while downloading it.`);
  if (r.status === 200) offset = 0; // the server sent the whole file: start over
  const total = size ?? (Number(r.headers.get('content-length')) + offset || undefined);
  const fd = openSync(incomplete, offset === 0 ? 'w' : 'a');
  let loaded = offset;
  try {
    for (const reader = r.body!.getReader(); ; ) {
      const { done, value } = await reader.read();
      if (done) break;
      writeSync(fd, value);
      loaded += value.length;
      if (loaded > MAX_MODEL_FILE_BYTES) {
        void reader.cancel();
        fail(`${file}: the download passed ${MAX_MODEL_FILE_BYTES} bytes (2 GiB), more than attnkit reads for one model file.`);
      }
      onProgress?.({ file, loaded, total });
    }
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    if (error instanceof ModelLoadError) throw error;
    fail(`${file}: the download broke off after ${loaded} bytes (${(error as Error).message}); loading again resumes it.`, error);
  } finally {
    closeSync(fd);
  }
  if (size !== undefined && loaded !== size) fail(`${file}: the download ended after ${loaded} of ${size} bytes; loading again resumes it.`);
  renameSync(incomplete, blob);
}
