import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
// Relative source import: Vite bundles this config before any export condition applies, and a
// fresh clone has no build of @attnkit/backends (same reason as tooling/vitest-config). The plugin's
// one workspace import, @attnkit/errors, is loaded from its build: the scripts build it first.
import { attnkitWasm } from '../../packages/backends/src/vite/index.js';
import { embeddedModelFolder } from '../../packages/cli/src/embedded-model.js';

/** The model folders the page serves under /models/: the embedded encoder, and a tiny random-weight decoder for the text generation panel. */
const MODEL_FOLDERS: Record<string, string> = {
  'attnkit-tiny-bert': embeddedModelFolder(),
  // 2 layers, 32 wide, random weights (tooling/reference/make_decoder_fixtures.py): its text is gibberish
  'tiny-random-qwen3': join(import.meta.dirname, '..', '..', 'tooling', 'reference', 'fixtures', 'decoders', 'qwen3'),
};

/**
 * Serves the model folders of {@link MODEL_FOLDERS} at /models/<name>/ in dev and preview, and emits
 * them in builds. Any other path under /models/ is a 404, not the page's index.html: the loader asks
 * for optional files (modules.json, ...), and a mistyped model folder reads as missing.
 */
function servedModels(): Plugin {
  const files = Object.fromEntries(Object.entries(MODEL_FOLDERS).map(([name, folder]) => [name, readdirSync(folder).filter((f) => /\.(json|safetensors|md)$/.test(f))]));
  const serve = (req: { url?: string }, res: { setHeader(k: string, v: string): void; statusCode: number; end(): void } & NodeJS.WritableStream, next: () => void) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith('/models/')) return next();
    const [model = '', ...rest] = path.slice('/models/'.length).split('/');
    const name = rest.join('/');
    if (!Object.hasOwn(files, model) || !files[model]!.includes(name)) {
      res.statusCode = 404; // not the app's index.html: the loader asks for optional files (modules.json, ...)
      return res.end();
    }
    res.setHeader('Content-Type', name.endsWith('.json') ? 'application/json' : 'application/octet-stream');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    createReadStream(join(MODEL_FOLDERS[model]!, name)).pipe(res);
  };
  return {
    name: 'attnkit-served-models',
    configureServer: (server) => void server.middlewares.use(serve as never),
    configurePreviewServer: (server) => void server.middlewares.use(serve as never),
    generateBundle() {
      for (const [model, names] of Object.entries(files)) {
        for (const name of names) this.emitFile({ type: 'asset', fileName: `models/${model}/${name}`, source: readFileSync(join(MODEL_FOLDERS[model]!, name)) });
      }
    },
  };
}

export default defineConfig({
  plugins: [attnkitWasm(), servedModels()],
  resolve: { conditions: ['@attnkit/source', ...defaultClientConditions] },
  // Identifiers kept: attnkit's error messages name the class that threw (`Qwen3ForCausalLM.stream: ...`,
  // Module.className is constructor.name), which renaming would shorten to two letters. (keepNames would
  // keep them too, but its __name() helper breaks the functions tfjs-backend-wasm sends to its workers.)
  esbuild: { minifyIdentifiers: false },
  build: { outDir: 'dist-web', chunkSizeWarningLimit: 4000, target: 'es2022' },
});
