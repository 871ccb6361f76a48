import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointError } from './checkpoint-error.js';
import { writeFolderAtomically } from './write-folder-atomically.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'attnkit-atomic-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);

describe('writeFolderAtomically', () => {
  it('writes nested files, replaces a folder as a whole when asked, and leaves no temporary folder', async () => {
    const folder = join(scratch, 'out', 'model');
    await writeFolderAtomically(folder, new Map([['a.json', bytes('1')], ['sub/b.bin', bytes('2')]]));
    expect(await readFile(join(folder, 'sub/b.bin'), 'utf8')).toBe('2');
    await expect(writeFolderAtomically(folder, new Map([['c', bytes('3')]]))).rejects.toThrow(/already exists and is not empty/);
    await writeFolderAtomically(folder, new Map([['c', bytes('3')]]), { replace: true });
    expect(await readdir(folder)).toEqual(['c']);
    expect(await readdir(join(scratch, 'out'))).toEqual(['model']);
  });

  it('a failed write leaves the old folder untouched and nothing else', async () => {
    const folder = join(scratch, 'kept');
    await writeFolderAtomically(folder, new Map([['a', bytes('old')]]));
    const clash = new Map([['x', bytes('1')], ['x/y', bytes('2')]]); // 'x' is a file, so 'x/y' cannot be written
    await expect(writeFolderAtomically(folder, clash, { replace: true, caller: 'test' })).rejects.toThrow(CheckpointError);
    expect(await readFile(join(folder, 'a'), 'utf8')).toBe('old');
    expect((await readdir(scratch)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('refuses a path that is a file', async () => {
    const file = join(scratch, 'file');
    await writeFile(file, 'x');
    await expect(writeFolderAtomically(file, new Map(), { replace: true, caller: 'saveSentenceFolder' })).rejects.toThrow(/saveSentenceFolder: .*file is a file, not a folder/);
  });
});
