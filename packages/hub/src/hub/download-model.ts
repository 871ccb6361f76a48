import { checkObject, checkOptionKeys, checkAbortSignal, checkFunction } from '@attnkit/errors';
import { ModelLoadError } from '../model-load-error.js';
import { hubSourceOf, type ModelSource } from '../model-source.js';
import type { LoadProgress } from '../read/file-reader.js';
import { HubCacheEntry } from './hub-cache.js';
import { hubFilesReader } from './hub-files-reader.js';
import { describeHubSource, type HubSource } from './hub-id.js';
import { hubHeaders } from './hub-metadata.js';
import { resolveHubOptions, type HubOptions } from './hub-options.js';

/** Options of {@link downloadModel}. */
export interface DownloadModelOptions {
  readonly hub?: HubOptions;
  /** Only the files whose path this accepts (default: every file of the revision). */
  readonly include?: (path: string) => boolean;
  readonly onProgress?: (progress: LoadProgress) => void;
  readonly signal?: AbortSignal;
  /** Fetches instead of the global `fetch` (same signature). */
  readonly fetch?: typeof fetch;
}

/** What {@link downloadModel} put in the cache. */
export interface DownloadedModel {
  readonly id: string;
  readonly commit: string;
  /** The snapshot folder: the model as a folder, for any program. */
  readonly folder: string;
  /** The files of the revision, by path (those `include` kept). */
  readonly files: readonly string[];
}

/**
 * Fills the Hugging Face cache (Node) with a model's files at a revision, as `hf download` does:
 * the Hub's API lists the revision's files (`GET /api/models/<id>/revision/<revision>`), and each is
 * read through the cache — downloaded once, resumable, linked into `snapshots/<commit>/` — so every
 * later load, by attnkit or by Python, needs no network. Returns the commit and the snapshot folder.
 * Errors (a gated, private or absent model; no network; a broken download) are `ModelLoadError`s
 * that say what to do; the token is never in a message.
 *
 * @example
 * const { folder } = await downloadModel('sentence-transformers/all-MiniLM-L6-v2', { onProgress: (p) => console.log(p.file, p.loaded) });
 */
export async function downloadModel(source: ModelSource, options: DownloadModelOptions = {}): Promise<DownloadedModel> {
  const caller = 'downloadModel';
  checkOptionKeys(checkObject(options, { caller, argument: 'options', expected: 'an object { hub?, include?, onProgress?, signal?, fetch? }' }), ['hub', 'include', 'onProgress', 'signal', 'fetch'], caller);
  checkFunction(options.include, { caller, argument: 'include', expected: 'a function (path) => boolean' });
  checkFunction(options.onProgress, { caller, argument: 'onProgress' });
  checkFunction(options.fetch, { caller, argument: 'fetch', expected: 'a function with the signature of the global fetch' });
  checkAbortSignal(options.signal, { caller });
  const hubSource: HubSource | undefined = typeof source === 'string' || (typeof source === 'object' && source !== null && !(source instanceof URL)) ? hubSourceOf(source) : undefined;
  if (hubSource === undefined) throw new ModelLoadError('', `downloads models named by Hugging Face id ('org/name' or { id, revision? }); received ${typeof source === 'string' ? JSON.stringify(source.slice(0, 200)) : 'another kind of source'}.`, undefined, caller);
  const hub = resolveHubOptions(options.hub, caller);
  if (hub.cacheDir === undefined) throw new ModelLoadError('', 'the Hugging Face cache is on disk: downloadModel runs in Node (a browser keeps files with cachedFetch).', undefined, caller);
  if (hub.offline) throw new ModelLoadError('', `${describeHubSource(hubSource)} cannot be downloaded offline (hub.offline or HF_HUB_OFFLINE).`, undefined, caller);
  const fetcher = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const revision = hubSource.revision ?? 'main';
  const url = new URL(`${hub.endpoint.pathname.replace(/\/$/, '')}/api/models/${hubSource.id}/revision/${encodeURIComponent(revision)}`, hub.endpoint);
  let response: Response;
  try {
    response = await fetcher(url, { headers: hubHeaders(url, hub), ...(options.signal === undefined ? {} : { signal: options.signal }) });
  } catch (error) {
    if (options.signal?.aborted === true) throw options.signal.reason;
    throw new ModelLoadError('', `${describeHubSource(hubSource)}: cannot reach ${hub.endpoint.origin} (${(error as Error).message}).`, error, caller);
  }
  if (response.status === 401 || response.status === 403) throw new ModelLoadError('', `${describeHubSource(hubSource)} needs access (HTTP ${response.status}): it is gated or private${hub.token === undefined ? ': set HF_TOKEN (or the hub.token option)' : ', and the token sent was not accepted'}, or the id is misspelled.`, undefined, caller);
  if (!response.ok) throw new ModelLoadError('', `${describeHubSource(hubSource)}: HTTP ${response.status} from ${hub.endpoint.origin} listing its files${response.status === 404 ? ' (no such revision)' : ''}.`, undefined, caller);
  const info = (await response.json()) as { sha?: unknown; siblings?: Array<{ rfilename?: unknown }> };
  const commit = typeof info.sha === 'string' && /^[0-9a-f]{40}$/.test(info.sha) ? info.sha : undefined;
  const listed = Array.isArray(info.siblings) ? info.siblings.map((s) => s.rfilename).filter((name): name is string => typeof name === 'string') : undefined;
  if (commit === undefined || listed === undefined) throw new ModelLoadError('', `${describeHubSource(hubSource)}: ${hub.endpoint.origin} listed no commit and files; is it a Hugging Face Hub?`, undefined, caller);
  const prefix = hubSource.subfolder === undefined || hubSource.subfolder === '' ? '' : `${hubSource.subfolder.replace(/\/$/, '')}/`;
  const files = listed.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length)).filter((path) => options.include?.(path) ?? true);
  const read = hubFilesReader({ ...hubSource, revision: commit }, hub, { caller, fetch: fetcher, signal: options.signal, onProgress: options.onProgress });
  for (const file of files) await read(file, { required: true });
  const entry = new HubCacheEntry(hub.cacheDir, hubSource.id);
  entry.writeRef(revision, commit);
  return { id: hubSource.id, commit, folder: entry.snapshotFolder(commit), files };
}
