import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WASM_PACKAGE, WEBGL_PACKAGE, WEBGPU_PACKAGE } from './backend-packages.js';

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

describe('the optional backend packages', () => {
  it.each([WASM_PACKAGE, WEBGL_PACKAGE, WEBGPU_PACKAGE])('$name is an optional peer dependency with the range the install command names', (backendPackage) => {
    expect(manifest.peerDependencies?.[backendPackage.name]).toBe(backendPackage.versionRange);
    expect(manifest.peerDependenciesMeta?.[backendPackage.name]).toEqual({ optional: true });
    expect(manifest.dependencies?.[backendPackage.name]).toBeUndefined();
    expect(backendPackage.name).toBe(`@tensorflow/tfjs-backend-${backendPackage.backend}`);
  });

  it('loads the package it names', async () => {
    expect(typeof (await WASM_PACKAGE.load()).setWasmPaths).toBe('function');
    expect(WASM_PACKAGE.installed()).toBe(true);
  });
});

/** The ways a file can load (not only type-check against) an optional backend package. */
const PACKAGE = String.raw`['"]@tensorflow/tfjs-backend-(?:wasm|webgl|webgpu)['"]`;
const LOADS = [
  new RegExp(String.raw`(?<![\w.]|typeof\s*)(?:import|require)\s*\(\s*${PACKAGE}`), // import('…'), require('…')
  new RegExp(String.raw`^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s*${PACKAGE}`, 'm'), // import { x } from '…'
  new RegExp(String.raw`^\s*import\s*${PACKAGE}`, 'm'), // import '…'
];

function codeOf(file: string): string {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, ''); // without comments
}

describe('loading the optional packages', () => {
  it('happens only in backend-packages.ts, behind import() (type imports are fine)', () => {
    const sources = readdirSync(new URL('../', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const offenders = sources.filter((file) => LOADS.some((load) => load.test(codeOf(file))));
    expect(offenders).toEqual(['adapters/backend-packages.ts']);
  });
});
