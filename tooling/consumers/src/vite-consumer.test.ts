import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestPlan } from '@attnkit/test-utils/browser-test-plan';
import { findChromium } from '@attnkit/test-utils/chromium';
import { run } from '../../scripts/pack-packages.mjs';
import { createConsumerProject, REPO_ROOT, type ConsumerProject } from './consumer-project.js';
import { readmeBlock } from './readme-block.js';
import { parseSetupScript } from './setup-script.js';
import { openSimilarityPage, type SimilarityPage } from './similarity-page.js';
import { startVite } from './vite-server.js';

// A Vite app as the root README's "Use it in your app" section has a user write it: the packed
// packages and vite npm-installed into a fresh folder, the README's setup commands, vite.config.js,
// index.html and main.js as they are; built, served by `vite` and `vite preview`, opened in Chromium.
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const WASM_BINARIES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];
const plan = browserTestPlan(findChromium(), process.env);
if (plan.action === 'fail') throw new Error(plan.message);
if (plan.action === 'skip') console.warn(plan.message);
let project: ConsumerProject;
let browser: Browser | undefined;
let devSimilarity: number | undefined;

beforeAll(async () => {
  project = createConsumerProject('vite-app', parseSetupScript(readmeBlock(readme, 'vite-setup')));
  for (const [file, block] of [['vite.config.js', 'vite-config'], ['index.html', 'vite-html'], ['main.js', 'vite-main']] as const) {
    writeFileSync(join(project.dir, file), readmeBlock(readme, block));
  }
  console.log(`vite consumer: pack ${Math.round(project.timings.packMs)} ms, npm install ${Math.round(project.timings.installMs)} ms`);
  if (plan.action === 'run') browser = await chromium.launch({ executablePath: plan.executablePath });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  project?.remove();
});

/** The page's similarity: in [-1, 1], no console errors, wasm (threaded, cross-origin isolated) from the server's own origin. */
function expectSimilarityPage(page: SimilarityPage, origin: string): void {
  expect(page.errors).toEqual([]);
  expect(page.similarity).toBeGreaterThanOrEqual(-1);
  expect(page.similarity).toBeLessThanOrEqual(1);
  expect(page.crossOriginIsolated).toBe(true);
  expect(page.wasmUrls.length).toBeGreaterThan(0);
  for (const url of page.wasmUrls) expect(new URL(url).origin).toBe(origin);
}

describe('a Vite app using the published packages', () => {
  it('builds with the wasm binaries in its own output and no CDN address', () => {
    const built = run(process.execPath, [join('node_modules', 'vite', 'bin', 'vite.js'), 'build'], project.dir, { NO_COLOR: '1' });
    expect(built.ok, built.output).toBe(true);
    const dist = join(project.dir, 'dist');
    for (const name of WASM_BINARIES) {
      expect(statSync(join(dist, 'attnkit-wasm', name)).size).toBe(statSync(join(project.dir, 'node_modules/@tensorflow/tfjs-backend-wasm/dist', name)).size);
    }
    const js = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
    const code = js.map((file) => readFileSync(join(dist, 'assets', file), 'utf8')).join('\n');
    expect(code).toContain('"/attnkit-wasm/"');
    expect(code).not.toMatch(/cdn\.jsdelivr|unpkg\.com|https:\/\/[^"'\s]*\.wasm/);
    const kB = (bytes: number) => `${(bytes / 1e3).toFixed(1)} kB`;
    const jsBytes = js.reduce((sum, file) => sum + statSync(join(dist, 'assets', file)).size, 0);
    console.log(`vite build: JS ${kB(jsBytes)} (${js.length} files); wasm ${WASM_BINARIES.map((name) => `${name} ${kB(statSync(join(dist, 'attnkit-wasm', name)).size)}`).join(', ')}`);
  }, 120_000);

  it.skipIf(plan.action !== 'run')('vite dev serves it, and Chromium shows the similarity with no console error', async () => {
    const server = await startVite(project.dir, []);
    try {
      const started = performance.now();
      const page = await openSimilarityPage(browser!, server.url);
      console.log(`vite dev: similarity ${page.similarity} shown ${Math.round(performance.now() - started)} ms after navigation (first visit: dependencies pre-bundled)`);
      expectSimilarityPage(page, new URL(server.url).origin);
      expect(server.output()).not.toMatch(/error/i);
      devSimilarity = page.similarity;
    } finally {
      await server.stop();
    }
  }, 120_000);

  it.skipIf(plan.action !== 'run')('vite preview serves the build, and Chromium shows the same similarity', async () => {
    const server = await startVite(project.dir, ['preview']);
    try {
      const page = await openSimilarityPage(browser!, server.url);
      expectSimilarityPage(page, new URL(server.url).origin);
      if (devSimilarity !== undefined) expect(page.similarity).toBe(devSimilarity);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
