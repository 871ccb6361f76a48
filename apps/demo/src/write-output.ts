import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidArgumentError } from '@attnkit/errors';

/**
 * Writes `text` to `path` atomically: into a temporary file beside it, then renamed over it, so a
 * reader (or an interrupted run) sees the old file or the whole new one, never half of it. A path
 * whose folder is missing or not writable, or that names a folder, is an `InvalidArgumentError`
 * naming `--output`, the path and the system's reason; no temporary file is left behind.
 *
 * @example
 * await writeOutputAtomically('out.json', `${JSON.stringify(result)}\n`, 'attnkit encode');
 */
export async function writeOutputAtomically(path: string, text: string, caller: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new InvalidArgumentError({ caller, argument: '--output', expected: 'a file path in an existing, writable folder', received: `${JSON.stringify(path)} (${reason})` });
  }
}
