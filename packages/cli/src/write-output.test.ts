import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { writeOutputAtomically } from './write-output.js';

describe('writeOutputAtomically', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attnkit-output-'));

  it('writes a new file and replaces an old one whole, leaving no temporary file', async () => {
    const path = join(dir, 'out.json');
    await writeOutputAtomically(path, '{"a":1}\n', 'attnkit encode');
    writeFileSync(join(dir, 'keep.txt'), 'x');
    await writeOutputAtomically(path, '{"a":2}\n', 'attnkit encode');
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}\n');
    expect(readdirSync(dir).sort()).toEqual(['keep.txt', 'out.json']);
  });

  it('a missing folder is a typed error naming --output and the path', async () => {
    const path = join(dir, 'no-such-folder', 'out.json');
    await expect(writeOutputAtomically(path, '{}', 'attnkit encode')).rejects.toThrow(InvalidArgumentError);
    await expect(writeOutputAtomically(path, '{}', 'attnkit encode')).rejects.toThrow(`attnkit encode: '--output' must be a file path in an existing, writable folder; received ${JSON.stringify(path)} (ENOENT).`);
  });

  it('a path that is a folder is a typed error, and what was there is untouched, with no temporary file left', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'inside.txt'), 'kept');
    await expect(writeOutputAtomically(folder, '{}', 'attnkit encode')).rejects.toThrow(/received .*a-folder" \((EISDIR|ENOTEMPTY|EEXIST)\)\.$/);
    expect(readFileSync(join(folder, 'inside.txt'), 'utf8')).toBe('kept');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(folder)).toBe(true);
  });

  it('writes through a symbolic link (the link stays), and refuses a pipe or a device instead of replacing it', async () => {
    const target = join(dir, 'target.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    await writeOutputAtomically(link, '{"via":"link"}\n', 'attnkit encode');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{"via":"link"}\n');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(writeOutputAtomically(fifo, '{}', 'attnkit encode')).rejects.toThrow(`attnkit encode: '--output' must be a file path in an existing, writable folder; received ${JSON.stringify(fifo)} (a device, pipe or socket, not a regular file; leave out --output to print to stdout).`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    await expect(writeOutputAtomically('/dev/null', '{}', 'attnkit encode')).rejects.toThrow(/received "\/dev\/null" \(a device, pipe or socket/);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});
