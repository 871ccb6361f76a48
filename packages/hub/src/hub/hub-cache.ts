import { nodeBuiltin } from '@attnkit/errors';
import { COMMIT, repoFolderName } from './hub-id.js';

/**
 * One model's folder in the Hugging Face cache, laid out as `huggingface_hub` lays it out, so that
 * Python and attnkit share what either downloaded:
 * `models--org--name/blobs/<etag>` (the bytes), `snapshots/<commit>/<path>` (relative links to the
 * blobs), `refs/<revision>` (the commit a branch or tag pointed to), `.no_exist/<commit>/<path>`
 * (files a commit does not have) and `<cache>/.locks/models--org--name/<etag>.lock` while a blob downloads.
 */
export class HubCacheEntry {
  readonly folder: string;
  readonly locks: string;

  constructor(cacheDir: string, id: string) {
    const { join } = nodeBuiltin('node:path');
    this.folder = join(cacheDir, repoFolderName(id));
    this.locks = join(cacheDir, '.locks', repoFolderName(id));
  }

  /** The commit `revision` names: itself if it is one, else what `refs/<revision>` holds (undefined when the cache has no such ref). */
  commitOf(revision: string): string | undefined {
    if (COMMIT.test(revision)) return revision;
    const { readFileSync } = nodeBuiltin('node:fs');
    try {
      const commit = readFileSync(this.#path('refs', revision), 'utf8').trim();
      return COMMIT.test(commit) ? commit : undefined;
    } catch {
      return undefined;
    }
  }

  /** Records that `revision` (a branch or tag) points at `commit`, atomically. */
  writeRef(revision: string, commit: string): void {
    if (COMMIT.test(revision) || this.commitOf(revision) === commit) return;
    const { mkdirSync, renameSync, writeFileSync } = nodeBuiltin('node:fs');
    const { dirname } = nodeBuiltin('node:path');
    const path = this.#path('refs', revision);
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, commit);
    renameSync(temporary, path);
  }

  /** The snapshot path of `file` at `commit` (a link to its blob; it may not exist). */
  snapshot(commit: string, file: string): string {
    return this.#path('snapshots', commit, file);
  }

  /** The snapshot folder of `commit`. */
  snapshotFolder(commit: string): string {
    return this.#path('snapshots', commit);
  }

  /** The blob path of `etag` (it may not exist). */
  blob(etag: string): string {
    return this.#path('blobs', etag);
  }

  /** True when the snapshot holds `file` (a link to a blob that exists). */
  has(commit: string, file: string): boolean {
    const { existsSync } = nodeBuiltin('node:fs');
    return existsSync(this.snapshot(commit, file));
  }

  /** True when `.no_exist/<commit>/<file>` says the commit has no such file. */
  knownMissing(commit: string, file: string): boolean {
    const { existsSync } = nodeBuiltin('node:fs');
    return existsSync(this.#path('.no_exist', commit, file));
  }

  /** Records that `commit` has no `file` (an empty `.no_exist` marker, as Python writes). */
  markMissing(commit: string, file: string): void {
    const { mkdirSync, writeFileSync } = nodeBuiltin('node:fs');
    const { dirname } = nodeBuiltin('node:path');
    const path = this.#path('.no_exist', commit, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
  }

  /** Links `snapshots/<commit>/<file>` to `blobs/<etag>` with a relative link, atomically (replacing a stale one). */
  link(commit: string, file: string, etag: string): void {
    const { mkdirSync, renameSync, symlinkSync } = nodeBuiltin('node:fs');
    const { dirname, relative } = nodeBuiltin('node:path');
    const pointer = this.snapshot(commit, file);
    mkdirSync(dirname(pointer), { recursive: true });
    // a new link renamed over the old one: a reader at any moment finds the old link or the new, never none
    const temporary = `${pointer}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    symlinkSync(relative(dirname(pointer), this.blob(etag)), temporary);
    renameSync(temporary, pointer);
  }

  #path(...parts: string[]): string {
    const { join } = nodeBuiltin('node:path');
    return join(this.folder, ...parts.flatMap((part) => part.split('/')));
  }
}
