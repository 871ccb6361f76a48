import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { installedWasmDirectory } from '../adapters/resolve-wasm-location-node.js';
import { WASM_BINARY_NAMES } from '../use-backend-options.js';
import { attnkitOptimizeDeps } from './optimize-deps.js';

/** Options of {@link attnkitWasm}. */
export interface AttnkitWasmOptions {
  /** Folder (under Vite's `base`) the binaries are served from and emitted to. Default `'attnkit-wasm'`. */
  readonly folder?: string;
  /**
   * Send `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`
   * from the dev and preview servers, so pages are cross-origin isolated and the threaded wasm
   * binary can load. Default `true`. (Production servers must send the same headers themselves.)
   */
  readonly crossOriginIsolation?: boolean;
}

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Vite plugin that serves the tfjs wasm binaries from your own origin in dev and emits them as
 * assets in builds — never a CDN — and tells `useBackend('wasm')` where they are. It also sets the
 * dependency optimization `vite dev` needs for attnkit and tfjs (see `optimize-deps.ts`),
 * merged with yours, so `plugins: [attnkitWasm()]` is the whole config. Needs
 * `@tensorflow/tfjs-backend-wasm` installed (BackendPackageMissingError otherwise).
 *
 * @example
 * // vite.config.ts
 * import { attnkitWasm } from '@attnkit/backends/vite';
 * export default defineConfig({ plugins: [attnkitWasm()] });
 */
export function attnkitWasm(options: AttnkitWasmOptions = {}): Plugin {
  const folder = (options.folder ?? 'attnkit-wasm').replace(/^\/+|\/+$/g, '');
  const isolate = options.crossOriginIsolation ?? true;
  const sourceDir = installedWasmDirectory('attnkitWasm');
  let prefix = `/${folder}/`;
  return {
    name: 'attnkit-wasm',
    config(config) {
      const base = (config.base ?? '/').replace(/\/?$/, '/');
      prefix = `${base}${folder}/`;
      const headers = isolate ? ISOLATION_HEADERS : {};
      return {
        define: { __ATTNKIT_WASM_BASE__: JSON.stringify(prefix) },
        server: { headers },
        preview: { headers },
        optimizeDeps: attnkitOptimizeDeps(),
      };
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
        if (!(WASM_BINARY_NAMES as readonly string[]).includes(name)) return next();
        // This middleware answers before Vite applies `server.headers`, so it sends them itself.
        if (isolate) for (const [key, value] of Object.entries(ISOLATION_HEADERS)) res.setHeader(key, value);
        res.setHeader('Content-Type', 'application/wasm');
        res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        createReadStream(join(sourceDir, name)).pipe(res);
      });
    },
    generateBundle() {
      for (const name of WASM_BINARY_NAMES) {
        this.emitFile({ type: 'asset', fileName: `${folder}/${name}`, source: readFileSync(join(sourceDir, name)) });
      }
    },
  };
}
