// A Node program that loads a model without choosing a backend runs on wasm, not on tfjs'
// pure-JavaScript cpu backend (one to two orders of magnitude slower for transformers).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const HERE = join(import.meta.dirname, '..');
const MODEL = join(HERE, '..', '..', 'packages', 'models', 'assets', 'attnkit-tiny-bert');
async function program(name: string, code: string): Promise<string> {
  mkdirSync(join(HERE, '.readme'), { recursive: true });
  const file = join(HERE, '.readme', `${name}.ts`);
  writeFileSync(file, code);
  return (await run(join(HERE, 'node_modules', '.bin', 'tsx'), ['--conditions=@attnkit/source', file], { cwd: HERE })).stdout.trim();
}

describe('the default backend in Node', () => {
  it('loadSentenceEncoder and loadEncoder without useBackend run on wasm', async () => {
    const out = await program('default-backend', `
import { getBackend } from '@tensorflow/tfjs-core';
import { loadEncoder } from '@attnkit/models';
import { loadSentenceEncoder } from '@attnkit/sentence';
const model = await loadSentenceEncoder(${JSON.stringify(MODEL)});
const embeddings = await model.encode(['no backend chosen']);
console.log(getBackend(), embeddings.shape.join('x'));
const encoder = await loadEncoder(${JSON.stringify(MODEL)});
console.log(getBackend());
`);
    expect(out.split('\n')).toEqual(['wasm 1x64', 'wasm']);
  }, 60_000);

  it('a backend the program chose is kept', async () => {
    const out = await program('chosen-backend', `
import { getBackend } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
await useBackend('cpu');
await loadSentenceEncoder(${JSON.stringify(MODEL)});
console.log(getBackend());
`);
    expect(out).toBe('cpu');
  }, 60_000);
});
