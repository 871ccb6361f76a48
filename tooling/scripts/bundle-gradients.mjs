#!/usr/bin/env node
// Builds dist/gradients/register-gradients.node.js for @attnkit/backends: tfjs-core's
// register_all_gradients (per-file ES modules without extensions, loadable only by bundlers) as one
// ES module that plain Node can import. '@tensorflow/tfjs-core' itself and its runtime dependencies
// stay external; the gradient functions (and the tfjs-core internals they use) are bundled, and
// register into the kernel-gradient registry that every copy of tfjs-core shares (a global).
// Usage (from packages/backends, after tsc): node ../../tooling/scripts/bundle-gradients.mjs
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// esbuild and tfjs-core as the package being built resolves them (its devDependencies)
const require = createRequire(join(process.cwd(), 'package.json'));
const { build } = await import(pathToFileURL(require.resolve('esbuild')).href);
const core = dirname(require.resolve('@tensorflow/tfjs-core/package.json'));
await build({
  // tfjs-core itself first: the copy every program imports then creates the shared engine (whose
  // tensors carry that copy's methods), whichever module the program imports first
  stdin: { contents: `import '@tensorflow/tfjs-core';\nimport ${JSON.stringify(join(core, 'dist', 'register_all_gradients.js'))};\n`, resolveDir: process.cwd(), loader: 'js' },
  outfile: join(process.cwd(), 'dist', 'gradients', 'register-gradients.node.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@tensorflow/tfjs-core', 'seedrandom', 'long'],
  legalComments: 'inline',
  logLevel: 'warning',
  banner: { js: '// Built from @tensorflow/tfjs-core/dist/register_all_gradients (Apache-2.0) by tooling/scripts/bundle-gradients.mjs.' },
});
