import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, createServer, type ConfigEnv, type UserConfig } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WASM_PACKAGE, WEBGL_PACKAGE, WEBGPU_PACKAGE } from '../adapters/backend-packages.js';
import { BackendPackageMissingError } from '../errors/backend-package-missing-error.js';
import { installedWasmDirectory } from '../adapters/resolve-wasm-location-node.js';
import { WASM_BINARY_NAMES } from '../use-backend-options.js';
import { attnkitWasm } from './attnkit-wasm.js';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'attnkit-vite-'));
  writeFileSync(join(root, 'index.html'), '<script type="module" src="/main.js"></script>');
  writeFileSync(join(root, 'main.js'), 'console.log(__ATTNKIT_WASM_BASE__);');
  return root;
}

describe('attnkitWasm (Vite plugin)', () => {
  it('emits the three binaries byte-identical under base/folder and defines where they are', async () => {
    const root = project();
    await build({ root, base: '/app/', logLevel: 'silent', plugins: [attnkitWasm()], build: { outDir: join(root, 'dist') } });
    for (const name of WASM_BINARY_NAMES) {
      const emitted = join(root, 'dist', 'attnkit-wasm', name);
      expect(existsSync(emitted)).toBe(true);
      expect(statSync(emitted).size).toBe(statSync(join(installedWasmDirectory(), name)).size);
    }
    const js = readFileSync(join(root, 'dist', 'assets', readdir(join(root, 'dist', 'assets'))), 'utf8');
    expect(js).toContain('"/app/attnkit-wasm/"');
  });

  it('serves the binaries from the dev server with the wasm MIME type and isolation headers', async () => {
    const server = await createServer({ root: project(), logLevel: 'silent', plugins: [attnkitWasm()], server: { port: 0, host: '127.0.0.1' } });
    await server.listen();
    try {
      const address = server.httpServer?.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const response = await fetch(`http://127.0.0.1:${port}/attnkit-wasm/tfjs-backend-wasm-simd.wasm`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/wasm');
      expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(Array.from(bytes.subarray(0, 4))).toEqual([0, 0x61, 0x73, 0x6d]); // "\0asm"
      expect((await fetch(`http://127.0.0.1:${port}/attnkit-wasm/other.wasm`)).headers.get('content-type')).not.toBe('application/wasm');
    } finally {
      await server.close();
    }
  });

  it('pre-bundles tfjs-core and the installed tfjs backends for vite dev, and serves @attnkit/backends as it is', () => {
    vi.spyOn(WEBGL_PACKAGE, 'installed').mockReturnValue(true);
    vi.spyOn(WEBGPU_PACKAGE, 'installed').mockReturnValue(false);
    const { optimizeDeps } = configOf(attnkitWasm());
    // Without these, a consumer's `vite dev` serves tfjs-core raw: "ReferenceError: module is not defined" (its CommonJS dependency `long`).
    expect(optimizeDeps).toEqual({
      include: ['@tensorflow/tfjs-core', '@attnkit/backends > @tensorflow/tfjs-backend-cpu', '@attnkit/backends > @tensorflow/tfjs-backend-wasm', '@attnkit/backends > @tensorflow/tfjs-backend-webgl'],
      exclude: ['@attnkit/backends'],
    });
  });

  it('needs @tensorflow/tfjs-backend-wasm, and says how to install it', () => {
    vi.spyOn(WASM_PACKAGE, 'installed').mockReturnValue(false);
    expect(() => attnkitWasm()).toThrow(BackendPackageMissingError);
    expect(() => attnkitWasm()).toThrow(
      "attnkitWasm: the 'wasm' backend needs @tensorflow/tfjs-backend-wasm, which is not installed. Install it: npm install @tensorflow/tfjs-backend-wasm@^4.22.0",
    );
  });
});

afterEach(() => vi.restoreAllMocks());

/** What the plugin's `config` hook returns for a config with no `base`. */
function configOf(plugin: ReturnType<typeof attnkitWasm>): UserConfig {
  const hook = plugin.config as (config: UserConfig, env: ConfigEnv) => UserConfig;
  return hook({}, { command: 'serve', mode: 'development' });
}

function readdir(dir: string): string {
  const js = readdirSync(dir).find((f) => f.endsWith('.js'));
  if (js === undefined) throw new Error(`no .js asset in ${dir}`);
  return js;
}
