import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { erfWasm } from './erf-wasm.js';
import { erfWat } from './erf-wat.js';

const generatedFile = fileURLToPath(new URL('./erf-wasm.ts', import.meta.url));

async function assemble(memory: 'shared' | 'plain'): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const module = wabt.parseWat(`erf-${memory}.wat`, erfWat(memory), { simd: true, threads: true });
  try {
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

describe('erfWasm (generated)', () => {
  it('is the assembly of erfWat, for both memories (ATTNKIT_UPDATE_DOCS=1 rewrites erf-wasm.ts)', async () => {
    const shared = Buffer.from(await assemble('shared')).toString('base64');
    const plain = Buffer.from(await assemble('plain')).toString('base64');
    if (process.env.ATTNKIT_UPDATE_DOCS === '1') {
      const text = readFileSync(generatedFile, 'utf8').replace(/shared: '[^']*'/, `shared: '${shared}'`).replace(/plain: '[^']*'/, `plain: '${plain}'`);
      writeFileSync(generatedFile, text);
    }
    expect({ shared: erfWasm.shared, plain: erfWasm.plain }).toEqual({ shared, plain });
  });

  it('validates as WebAssembly with SIMD', () => {
    for (const base64 of [erfWasm.shared, erfWasm.plain]) expect(WebAssembly.validate(Buffer.from(base64, 'base64'))).toBe(true);
  });
});
