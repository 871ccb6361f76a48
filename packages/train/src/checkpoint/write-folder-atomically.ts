import { nodeBuiltin } from '@attnkit/errors';
import { CheckpointError } from './checkpoint-error.js';

/** Options of {@link writeFolderAtomically}. */
export interface WriteFolderOptions {
  /** Replace a folder already at the path (default false: an existing non-empty folder is an error). */
  readonly replace?: boolean;
  /** The public function named in errors. */
  readonly caller?: string;
}

/**
 * Writes `files` (path inside the folder → bytes) as the folder `folder` so that a crash never
 * leaves half of it: everything goes to a hidden sibling folder first, which is then renamed into
 * place (an atomic rename on one file system). Replacing an existing folder moves it aside first
 * and deletes it last. Node only.
 *
 * @example
 * await writeFolderAtomically('./out/model', new Map([['config.json', bytes]]));
 */
export async function writeFolderAtomically(folder: string, files: ReadonlyMap<string, Uint8Array>, options: WriteFolderOptions = {}): Promise<void> {
  const caller = options.caller ?? 'writeFolderAtomically';
  const { mkdir, rename, rm, stat, writeFile, readdir } = nodeBuiltin('node:fs/promises');
  const { basename, dirname, join } = nodeBuiltin('node:path');
  const existing = await stat(folder).catch(() => undefined);
  if (existing !== undefined && !existing.isDirectory()) throw new CheckpointError(caller, folder, `${folder} is a file, not a folder; choose a folder path for the checkpoint.`);
  if (existing !== undefined && options.replace !== true && (await readdir(folder)).length > 0) throw new CheckpointError(caller, folder, `${folder} already exists and is not empty; pass overwrite: true to replace it, or choose another folder.`);
  const parent = dirname(folder);
  await mkdir(parent, { recursive: true });
  const tag = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
  const temporary = join(parent, `.${basename(folder)}.tmp-${tag}`);
  try {
    for (const [path, bytes] of files) {
      const target = join(temporary, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes);
    }
    await mkdir(temporary, { recursive: true }); // an empty file list still makes a folder
    if (existing === undefined) {
      await rename(temporary, folder);
      return;
    }
    const aside = join(parent, `.${basename(folder)}.old-${tag}`);
    await rename(folder, aside);
    await rename(temporary, folder);
    await rm(aside, { recursive: true, force: true });
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    if (error instanceof CheckpointError) throw error;
    throw new CheckpointError(caller, folder, `${folder} could not be written (${(error as Error).message}); nothing was left half-written.`, error);
  }
}
