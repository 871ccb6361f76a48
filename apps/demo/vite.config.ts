import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
// Relative source import: Vite bundles this config before any export condition applies, and a
// fresh clone has no build of @attnkit/backends (same reason as tooling/vitest-config). The plugin's
// one workspace import, @attnkit/errors, is loaded from its build: the scripts build it first.
import { attnkitWasm } from '../../packages/backends/src/vite/index.js';
import { embeddedModelFolder } from '../../packages/cli/src/embedded-model.js';

/**
 * Serves the embedded model at /models/attnkit-tiny-bert/ in dev and preview, and emits it in
 * builds. Any other path under /models/ is a 404, not the page's index.html: the loader asks for
 * optional files (modules.json, ...), and a mistyped model folder reads as missing.
 */
function embeddedModel(): Plugin {
  const folder = embeddedModelFolder();
  const prefix = '/models/attnkit-tiny-bert/';
  const files = readdirSync(folder).filter((f) => /\.(json|safetensors|md)$/.test(f));
  const serve = (req: { url?: string }, res: { setHeader(k: string, v: string): void; statusCode: number; end(): void } & NodeJS.WritableStream, next: () => void) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith('/models/')) return next();
    const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (!files.includes(name)) {
      res.statusCode = 404; // not the app's index.html: the loader asks for optional files (modules.json, ...)
      return res.end();
    }
    res.setHeader('Content-Type', name.endsWith('.json') ? 'application/json' : 'application/octet-stream');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    createReadStream(join(folder, name)).pipe(res);
  };
  return {
    name: 'attnkit-embedded-model',
    configureServer: (server) => void server.middlewares.use(serve as never),
    configurePreviewServer: (server) => void server.middlewares.use(serve as never),
    generateBundle() {
      for (const name of files) this.emitFile({ type: 'asset', fileName: `models/attnkit-tiny-bert/${name}`, source: readFileSync(join(folder, name)) });
    },
  };
}

export default defineConfig({
  plugins: [attnkitWasm(), embeddedModel()],
  resolve: { conditions: ['@attnkit/source', ...defaultClientConditions] },
  build: { outDir: 'dist-web', chunkSizeWarningLimit: 4000, target: 'es2022' },
});
