import { ModelLoadError } from '../model-load-error.js';
import type { FileReader, ReadContext } from '../read/file-reader.js';
import { localFilesReader } from '../read/read-local-files.js';
import { downloadBlob } from './download-blob.js';
import { HubCacheEntry } from './hub-cache.js';
import { describeHubSource, type HubSource } from './hub-id.js';
import { hubFileMetadata } from './hub-metadata.js';
import type { ResolvedHubOptions } from './hub-options.js';

/**
 * A reader of a model on the Hugging Face Hub through the on-disk cache Python's `huggingface_hub`
 * uses (Node). Each file is looked up as Python does: the revision's commit and the file's blob are
 * asked of the Hub (one `HEAD`), and a file the cache holds for that commit is read from disk with no
 * download; otherwise its blob is downloaded into the cache (resumable, atomic, shared with other
 * processes) and linked into the snapshot. The first answer fixes the commit: every later file of the
 * load comes from that same commit. Files the commit does not have are remembered in `.no_exist`.
 *
 * Offline (`hub.offline`, `HF_HUB_OFFLINE=1`), or when the Hub cannot be reached, the cache alone
 * answers: the commit from `refs/<revision>`, the files from its snapshot. A file it lacks is missing
 * for an optional read and a `ModelLoadError` naming the file, the model and the cache for a
 * required one (`config.json`, the weights), with what to do.
 *
 * @example
 * const read = hubFilesReader({ id: 'org/name' }, hub, context);
 * const config = await read('config.json', { required: true });
 */
export function hubFilesReader(source: HubSource, hub: ResolvedHubOptions, context: ReadContext): FileReader {
  const { caller, signal } = context;
  const revision = source.revision ?? 'main';
  const name = describeHubSource(source);
  if (hub.cacheDir === undefined) throw new ModelLoadError('', `${name}: no cache folder (hub.cacheDir) to keep models in.`, undefined, caller);
  const cacheDir = hub.cacheDir;
  const entry = new HubCacheEntry(cacheDir, source.id);
  const inRepo = (file: string) => [...(source.subfolder ?? '').split('/').filter(Boolean), file].join('/');
  let commit: string | undefined; // fixed by the first answer: one load reads one commit
  const fromCache = (file: string, commitNow: string | undefined, required: boolean, why: string): Promise<Uint8Array | undefined> | undefined => {
    if (commitNow !== undefined && entry.has(commitNow, inRepo(file))) return localFilesReader(entry.snapshotFolder(commitNow), context)(inRepo(file), { required });
    if (!required || (commitNow !== undefined && entry.knownMissing(commitNow, inRepo(file)))) return Promise.resolve(undefined);
    throw new ModelLoadError(file, `${file} of ${name} is not in the cache (${entry.folder}) and ${why}. Download the model while online (attnkit download ${source.id}), or set hub.cacheDir / HF_HUB_CACHE to the cache that has it.`, undefined, caller);
  };
  return async (file, { required = false } = {}) => {
    signal?.throwIfAborted();
    if (hub.offline) return fromCache(file, commit ?? entry.commitOf(revision), required, 'the hub is not asked (offline: hub.offline or HF_HUB_OFFLINE)');
    const known = commit ?? entry.commitOf(revision);
    if (known !== undefined && known === revision && entry.has(known, inRepo(file))) return fromCache(file, known, required, ''); // a commit's files never change
    let meta: Awaited<ReturnType<typeof hubFileMetadata>>;
    try {
      meta = await hubFileMetadata(source, commit ?? revision, file, hub, { caller, fetch: context.fetch, signal });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (error instanceof ModelLoadError) throw error;
      // the Hub cannot be reached: the cache answers, as huggingface_hub does
      return fromCache(file, known, required, `${hub.endpoint.origin} cannot be reached (${(error as Error).message})`);
    }
    commit ??= meta.commit;
    if (meta.commit !== undefined) entry.writeRef(revision, meta.commit);
    if (meta.kind === 'missing') {
      if (meta.commit !== undefined) entry.markMissing(meta.commit, inRepo(file));
      return undefined;
    }
    if (!entry.has(meta.commit, inRepo(file))) {
      await downloadBlob(entry, meta.etag, meta.url, meta.size, { caller, file, fetch: context.fetch, hub, signal, onProgress: context.onProgress });
      entry.link(meta.commit, inRepo(file), meta.etag);
    }
    return localFilesReader(entry.snapshotFolder(meta.commit), context)(inRepo(file), { required });
  };
}
