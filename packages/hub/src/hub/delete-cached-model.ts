import { checkOptionKeys, nodeBuiltin } from '@attnkit/errors';
import { ModelLoadError } from '../model-load-error.js';
import { checkHubSource, repoFolderName } from './hub-id.js';
import { resolveHubOptions, type HubOptions } from './hub-options.js';
import { scanHubCache } from './scan-hub-cache.js';

/**
 * Deletes a model from the Hugging Face cache (Node): the whole model, or one snapshot (a commit, or
 * the commit a branch points to) with the refs that point at it and the blobs no other snapshot
 * links. Returns the bytes freed. A model or revision the cache does not hold is a `ModelLoadError`.
 *
 * @example
 * deleteCachedModel('acme/old-model'); // 90_868_573
 * deleteCachedModel('acme/tiny', { revision: 'v1' });
 */
export function deleteCachedModel(id: string, options: { readonly revision?: string; readonly hub?: HubOptions } = {}): number {
  const caller = 'deleteCachedModel';
  checkOptionKeys(options, ['revision', 'hub'], caller);
  checkHubSource({ id, ...(options.revision === undefined ? {} : { revision: options.revision }) }, caller);
  const { cacheDir } = resolveHubOptions(options.hub, caller);
  const model = scanHubCache(options.hub === undefined ? {} : { hub: options.hub }).find((entry) => entry.id === id);
  if (cacheDir === undefined || model === undefined) throw new ModelLoadError('', `${id} is not in the cache (${cacheDir ?? 'none'}/${repoFolderName(id)}).`, undefined, caller);
  const { rmSync, readlinkSync, existsSync, lstatSync } = nodeBuiltin('node:fs');
  const { join, resolve, dirname, basename } = nodeBuiltin('node:path');
  if (options.revision === undefined) {
    rmSync(model.folder, { recursive: true, force: true });
    rmSync(join(cacheDir, '.locks', repoFolderName(id)), { recursive: true, force: true });
    return model.size;
  }
  const commit = model.refs[options.revision] ?? model.revisions.find((r) => r.commit === options.revision)?.commit;
  if (commit === undefined) throw new ModelLoadError('', `${id}@${options.revision} is not in the cache (revisions: ${model.revisions.map((r) => r.commit.slice(0, 12)).join(', ') || 'none'}; refs: ${Object.keys(model.refs).join(', ') || 'none'}).`, undefined, caller);
  const blobsOf = (snapshotCommit: string) => new Set(model.revisions.find((r) => r.commit === snapshotCommit)!.files.map((file) => {
    const pointer = join(model.folder, 'snapshots', snapshotCommit, file);
    return lstatSync(pointer).isSymbolicLink() ? basename(resolve(dirname(pointer), readlinkSync(pointer))) : '';
  }));
  const kept = new Set(model.revisions.filter((r) => r.commit !== commit).flatMap((r) => [...blobsOf(r.commit)]));
  let freed = 0;
  for (const blob of blobsOf(commit)) {
    const path = join(model.folder, 'blobs', blob);
    if (blob === '' || kept.has(blob) || !existsSync(path)) continue;
    freed += lstatSync(path).size;
    rmSync(path);
  }
  rmSync(join(model.folder, 'snapshots', commit), { recursive: true, force: true });
  for (const [ref, target] of Object.entries(model.refs)) if (target === commit) rmSync(join(model.folder, 'refs', ref));
  return freed;
}
