import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { simdWasm } from './simd-wasm.js';
import { simdWat } from './simd-wat.js';

const generatedFile = fileURLToPath(new URL('./simd-wasm.ts', import.meta.url));

async function assemble(memory: 'shared' | 'plain'): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const module = wabt.parseWat(`simd-${memory}.wat`, simdWat(memory), { simd: true, threads: true, bulk_memory: true });
  try {
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

describe('simdWasm (generated)', () => {
  it('is the assembly of simdWat, for both memories (ATTNKIT_UPDATE_DOCS=1 rewrites simd-wasm.ts)', async () => {
    const shared = Buffer.from(await assemble('shared')).toString('base64');
    const plain = Buffer.from(await assemble('plain')).toString('base64');
    if (process.env.ATTNKIT_UPDATE_DOCS === '1') {
      const text = readFileSync(generatedFile, 'utf8').replace(/shared: '[^']*'/, `shared: '${shared}'`).replace(/plain: '[^']*'/, `plain: '${plain}'`);
      writeFileSync(generatedFile, text);
    }
    expect({ shared: simdWasm.shared, plain: simdWasm.plain }).toEqual({ shared, plain });
  });

  it('validates as WebAssembly with SIMD and exports erf, gelu, layerNorm and maskedSoftmax', () => {
    for (const base64 of [simdWasm.shared, simdWasm.plain]) {
      const bytes = Buffer.from(base64, 'base64');
      expect(WebAssembly.validate(bytes)).toBe(true);
      expect(WebAssembly.Module.exports(new WebAssembly.Module(bytes))).toEqual([
        { name: 'erf', kind: 'function' },
        { name: 'gelu', kind: 'function' },
        { name: 'layerNorm', kind: 'function' },
        { name: 'maskedSoftmax', kind: 'function' },
      ]);
    }
  });
});
