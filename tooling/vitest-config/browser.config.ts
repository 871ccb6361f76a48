import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
// Relative source import: the config is bundled before any export condition applies, and the
// plugin must not need a build of @attnkit/backends. Its one workspace import, @attnkit/errors, is
// loaded from its build (turbo builds dependencies before test:browser).
import { attnkitWasm } from '../../packages/backends/src/vite/index.js';
import { browserTestPlan } from '../test-utils/src/browser-test-plan.js';
import { findChromium } from '../test-utils/src/find-chromium.js';
import { clientConditions } from './source-conditions.js';

const plan = browserTestPlan(findChromium(), process.env);
if (plan.action === 'fail') throw new Error(plan.message);
if (plan.action === 'skip') console.warn(`\n${plan.message}\n`);
const executablePath = plan.action === 'run' ? plan.executablePath : undefined;

/**
 * Backend tests in real Chromium (cpu, wasm, webgl, and webgpu through SwiftShader): every
 * `src/**\/*.browser.test.ts` of a package. Pages are cross-origin isolated, so wasm may thread.
 */
export default defineConfig({
  plugins: [attnkitWasm()],
  resolve: { conditions: clientConditions },
  // Pre-bundled up front: a dependency discovered mid-run makes Vite re-optimise and the pending
  // dynamic imports fail. The backend packages are dependencies of @attnkit/backends (resolved
  // from there with Vite's nested syntax), whichever package's tests are running.
  optimizeDeps: {
    include: [
      '@tensorflow/tfjs-core',
      '@tensorflow/tfjs-core/dist/register_all_gradients', // imported by @attnkit/test-utils (the reliability catalogue's combinations)
      ...['cpu', 'wasm', 'webgl', 'webgpu'].map((name) => `@attnkit/backends > @tensorflow/tfjs-backend-${name}`),
    ],
  },
  test: {
    include: executablePath === undefined ? [] : ['src/**/*.browser.test.ts', 'src/**/*.parity.test.ts'],
    passWithNoTests: true,
    // ATTNKIT_UPDATE_DOCS=1 lets a browser test rewrite the artefact it checks (read in the page as import.meta.env).
    env: { ATTNKIT_UPDATE_DOCS: process.env['ATTNKIT_UPDATE_DOCS'] ?? '' },
    testTimeout: 180_000,
    hookTimeout: 180_000,
    browser: {
      enabled: executablePath !== undefined,
      headless: true,
      screenshotFailures: false,
      provider: playwright({
        launchOptions: {
          ...(executablePath === undefined ? {} : { executablePath }),
          args: [
            '--no-sandbox',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--enable-unsafe-swiftshader',
            '--enable-unsafe-webgpu',
            '--use-webgpu-adapter=swiftshader',
          ],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
