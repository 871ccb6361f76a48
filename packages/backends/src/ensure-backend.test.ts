import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// A fresh process per case: which backend comes up first is a per-process fact.
const run = promisify(execFile);
const PACKAGE = join(import.meta.dirname, '..');
const files: string[] = [];
async function inFreshNode(code: string): Promise<string> {
  const file = join(PACKAGE, `ensure-backend-${files.length}.tmp.mjs`);
  files.push(file);
  writeFileSync(file, `import { getBackend } from '@tensorflow/tfjs-core';\nimport { ensureBackend, useBackend } from '@attnkit/backends';\n${code}`);
  return (await run(process.execPath, [file], { cwd: PACKAGE })).stdout.trim();
}

describe('ensureBackend (Node)', () => {
  it.each([undefined, '', 42])('refuses a caller name %j with a typed error', async (caller) => {
    const { ensureBackend } = await import('./ensure-backend.js');
    await expect(ensureBackend(caller as string)).rejects.toThrow(/^ensureBackend: 'caller' must be the name of the calling function, for messages \(a non-empty string\); received/);
  });

  afterAll(() => files.forEach((f) => rmSync(f, { force: true })));

  it('brings up wasm when no backend was chosen', async () => {
    expect(await inFreshNode("await ensureBackend('test'); console.log(getBackend());")).toBe('wasm');
  }, 60_000);

  it('keeps a backend the program chose, and waits for one being initialised', async () => {
    expect(await inFreshNode("await useBackend('cpu'); await ensureBackend('test'); console.log(getBackend());")).toBe('cpu');
    expect(await inFreshNode("void useBackend('cpu'); await ensureBackend('test'); console.log(getBackend());")).toBe('cpu');
  }, 60_000);
});
