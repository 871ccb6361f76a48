// The generation bench page (src/generation/page), built and served by src/generation/chromium-run.ts: `vite build`
// then `vite preview`, cross-origin isolated (COOP/COEP from attnkitWasm()) so both libraries get wasm threads.
// Everything from this origin: tfjs' wasm binaries (attnkitWasm()), transformers.js' own onnxruntime-web wasm
// files at /ort/, the model folders at /models/smollm-shaped/ and /models/gpt2-shaped/.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Connect, type Plugin } from 'vite';
// Relative source import, as apps/demo's config does: Vite bundles this config before export conditions apply.
import { attnkitWasm } from '../../packages/backends/src/vite/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const transformers = realpathSync(join(here, 'onnx', 'node_modules', '@huggingface', 'transformers'));
const ortDist = join(realpathSync(join(transformers, '..', '..', 'onnxruntime-web')), 'dist');

const TYPES: Record<string, string> = { '.json': 'application/json', '.wasm': 'application/wasm', '.mjs': 'text/javascript' };

/** Answers `prefix + name` from `folder` for names `allowed` accepts; any other path under the prefix is a 404 (the loaders probe optional files). */
function files(prefix: string, folder: string, allowed: (name: string) => boolean): Connect.NextHandleFunction {
  return (req, res, next) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
    if (!path.startsWith(prefix)) return next();
    const name = normalize(path.slice(prefix.length));
    const file = join(folder, name);
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (name.startsWith('..') || !allowed(name) || !existsSync(file) || !statSync(file).isFile()) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('Content-Type', TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(statSync(file).size));
    createReadStream(file).pipe(res);
  };
}

function generationFiles(): Plugin {
  const model = /^(config|generation_config|tokenizer|tokenizer_config)\.json$|^model\.safetensors$|^onnx\/model(_quantized)?\.onnx$/;
  const handlers = [
    ...['smollm-shaped', 'gpt2-shaped'].map((name) => files(`/models/${name}/`, join(here, 'models', name), (file) => model.test(file))),
    files('/ort/', ortDist, (name) => /^ort-wasm-simd-threaded(\.asyncify)?\.(mjs|wasm)$/.test(name)),
  ];
  const use = (server: { middlewares: Connect.Server }) => handlers.forEach((h) => server.middlewares.use(h));
  return { name: 'attnkit-generation-files', configureServer: use, configurePreviewServer: use };
}

export default defineConfig({
  root: join(here, 'src', 'generation', 'page'),
  plugins: [attnkitWasm(), generationFiles()],
  resolve: {
    conditions: ['@attnkit/source', ...defaultClientConditions],
    alias: {
      '@huggingface/transformers': join(transformers, 'dist', 'transformers.web.js'),
      '@attnkit/nn': join(here, '..', '..', 'packages', 'nn', 'src', 'index.ts'),
    },
  },
  build: { outDir: join(here, 'dist-web', 'generation'), emptyOutDir: true, chunkSizeWarningLimit: 8000, target: 'es2022' },
  logLevel: 'warn',
});
