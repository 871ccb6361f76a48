import { checkOptionKeys, nodeBuiltin } from '@attnkit/errors';
import { resolveHubOptions, type HubOptions } from './hub-options.js';

/** One model in the Hugging Face cache, as {@link scanHubCache} finds it. */
export interface CachedModel {
  readonly id: string;
  readonly folder: string;
  /** Bytes of its blobs on disk. */
  readonly size: number;
  /** Branch or tag → the commit it pointed to when last read. */
  readonly refs: Readonly<Record<string, string>>;
  /** Each snapshot: its commit and the files it links. */
  readonly revisions: ReadonlyArray<{ readonly commit: string; readonly files: readonly string[] }>;
  /** When a blob was last written (ms since 1970). */
  readonly lastModified: number;
}

/**
 * The models in the Hugging Face cache (Node) — attnkit's downloads and Python's alike — with their
 * size on disk, refs and snapshots, as `hf cache ls` lists them; largest first. A cache that does
 * not exist is empty.
 *
 * @example
 * for (const model of scanHubCache()) console.log(model.id, model.size);
 */
export function scanHubCache(options: { readonly hub?: HubOptions } = {}): CachedModel[] {
  checkOptionKeys(options, ['hub'], 'scanHubCache');
  const { cacheDir } = resolveHubOptions(options.hub, 'scanHubCache');
  const { existsSync, readdirSync, readFileSync, statSync } = nodeBuiltin('node:fs');
  const { join } = nodeBuiltin('node:path');
  if (cacheDir === undefined || !existsSync(cacheDir)) return [];
  const list = (folder: string, recursive = false) => (existsSync(folder) ? readdirSync(folder, { recursive }).map(String) : []);
  const models = list(cacheDir).filter((name) => name.startsWith('models--')).map((name) => {
    const folder = join(cacheDir, name);
    const blobs = list(join(folder, 'blobs')).filter((blob) => !blob.endsWith('.incomplete')).map((blob) => statSync(join(folder, 'blobs', blob)));
    const refs = Object.fromEntries(list(join(folder, 'refs'), true).filter((ref) => statSync(join(folder, 'refs', ref)).isFile()).map((ref) => [ref, readFileSync(join(folder, 'refs', ref), 'utf8').trim()]));
    const revisions = list(join(folder, 'snapshots')).map((commit) => ({ commit, files: list(join(folder, 'snapshots', commit), true).filter((path) => existsSync(join(folder, 'snapshots', commit, path)) && statSync(join(folder, 'snapshots', commit, path)).isFile()).sort() }));
    return { id: name.slice('models--'.length).split('--').join('/'), folder, size: blobs.reduce((sum, blob) => sum + blob.size, 0), refs, revisions, lastModified: Math.max(0, ...blobs.map((blob) => blob.mtimeMs)) };
  });
  return models.sort((a, b) => b.size - a.size || a.id.localeCompare(b.id));
}
