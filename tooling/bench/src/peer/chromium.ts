import { build, preview, type PreviewServer } from 'vite';
import { chromium } from 'playwright';
import { join } from 'node:path';
// Relative source import: @attnkit/test-utils is not a dependency of the bench (its manifest is shared).
import { findChromium } from '../../../test-utils/src/find-chromium.js';
import type { EngineResult } from './engine.js';
import { benchDir } from './paths.js';
import type { PagePeer } from './page/main.js';

/** Chromium flags as apps/demo's browser tests use them (SwiftShader: this machine has no GPU). */
const CHROMIUM_ARGS = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader'];

export interface PeerPage {
  readonly url: string;
  readonly executable: string;
  close(): Promise<void>;
}

/** Builds the page (vite.config.ts) and serves the build on 127.0.0.1, cross-origin isolated. */
export async function servePeerPage(): Promise<PeerPage> {
  const executable = findChromium().path;
  if (executable === undefined) throw new Error('bench:peer needs Chromium: `apt-get install chromium` or ATTNKIT_CHROMIUM=/path/to/chrome');
  const configFile = join(benchDir, 'vite.config.ts');
  await build({ configFile, logLevel: 'error' });
  const server: PreviewServer = await preview({ configFile, logLevel: 'error', preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('bench:peer: the preview server has no URL');
  return { url, executable, close: () => server.close() };
}

export type BrowserResult = EngineResult & { workers: number; crossOriginIsolated: boolean; hardwareConcurrency: number; transformersVersion: string; onnxruntimeWebVersion: string };

/**
 * Runs one engine in a fresh Chromium (new process: empty HTTP, Cache Storage, compiled-wasm and GPU
 * program caches), so its cold number is a first visit's. The page is loaded first: cold starts at engine
 * creation, after the page's scripts ran.
 */
export async function runInChromium(page: PeerPage, id: string, texts: string[], runs: number): Promise<BrowserResult> {
  const browser = await chromium.launch({ executablePath: page.executable, args: CHROMIUM_ARGS });
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.url);
    await tab.waitForFunction(() => '__peer' in globalThis, undefined, { timeout: 60_000 });
    const facts = await tab.evaluate(() => {
      const peer = (globalThis as unknown as { __peer: PagePeer }).__peer;
      return { crossOriginIsolated: peer.crossOriginIsolated, hardwareConcurrency: peer.hardwareConcurrency, transformersVersion: peer.transformersVersion, onnxruntimeWebVersion: peer.onnxruntimeWebVersion };
    });
    const result = await tab.evaluate(([engine, list, count]) => (globalThis as unknown as { __peer: PagePeer }).__peer.run(engine, list, count), [id, texts, runs] as const);
    return { ...result, ...facts, ...(result.error === undefined && errors.length > 0 ? { error: errors.join('; ') } : {}) };
  } finally {
    await browser.close();
  }
}
