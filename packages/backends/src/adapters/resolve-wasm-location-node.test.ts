import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WasmBinariesMissingError } from '../errors/wasm-binaries-missing-error.js';
import { installedWasmDirectory, resolveWasmLocationNode } from './resolve-wasm-location-node.js';

describe('resolveWasmLocationNode', () => {
  it('defaults to the installed package dist/ folder', () => {
    expect(installedWasmDirectory()).toMatch(/@tensorflow\/tfjs-backend-wasm\/dist\/$/);
    expect(resolveWasmLocationNode(undefined, 'tfjs-backend-wasm-simd.wasm')).toBe(installedWasmDirectory());
  });
  it('accepts a folder given without a trailing slash when the binary is there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-wasm-'));
    writeFileSync(join(dir, 'tfjs-backend-wasm.wasm'), '');
    expect(resolveWasmLocationNode(dir, 'tfjs-backend-wasm.wasm')).toBe(`${dir}/`);
  });
  it('names the missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-wasm-'));
    expect(() => resolveWasmLocationNode(`${dir}/`, 'tfjs-backend-wasm-simd.wasm')).toThrow(WasmBinariesMissingError);
    expect(() => resolveWasmLocationNode(`${dir}/`, 'tfjs-backend-wasm-simd.wasm')).toThrow(
      `wasm binaries not found: ${dir}/tfjs-backend-wasm-simd.wasm (from wasmPaths).`,
    );
  });
});
