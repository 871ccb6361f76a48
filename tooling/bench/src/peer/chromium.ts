import { build, preview, type PreviewServer } from 'vite';
import { chromium } from 'playwright';
import { join } from 'node:path';
// Relative source import: @attnkit/test-utils is not a dependency of the bench (its manifest is shared).
import { findChromium } from '../../../test-utils/src/find-chromium.js';
import type { CorpusGroup, CorpusResult } from './corpus/corpus-engine.js';
import type { EngineResult } from './engine.js';
import { benchDir } from './paths.js';
import type { GpuInfo } from './gpu-info.js';
import type { PagePeer } from './page/main.js';

/** Chromium flags as apps/demo's browser tests use them (SwiftShader: this machine has no GPU). */
const CHROMIUM_ARGS = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader'];
/**
 * bench:peer --gpu: WebGPU on and WebGL and WebGPU on the GPU through Vulkan, blocklist ignored. SwiftShader
 * stays allowed, so a machine without a GPU still runs the rows (and the report says they were not on a GPU);
 * ATTNKIT_WEBGPU_SWIFTSHADER=1 also gives WebGPU SwiftShader's adapter there, to check the webgpu engines run.
 */
const GPU_ARGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-angle=vulkan', '--ignore-gpu-blocklist'];

export interface PeerPage {
  readonly url: string;
  readonly executable: string;
  /** Launched with the GPU flags (bench:peer --gpu). */
  readonly gpu: boolean;
  close(): Promise<void>;
}

function launchArgs(page: PeerPage): string[] {
  if (!page.gpu) return CHROMIUM_ARGS;
  return [...CHROMIUM_ARGS, ...GPU_ARGS, ...(process.env['ATTNKIT_WEBGPU_SWIFTSHADER'] === '1' ? ['--use-webgpu-adapter=swiftshader'] : [])];
}

/** Builds the page (vite.config.ts) and serves the build on 127.0.0.1, cross-origin isolated. */
export async function servePeerPage(options: { gpu?: boolean } = {}): Promise<PeerPage> {
  const executable = findChromium().path;
  if (executable === undefined) throw new Error('bench:peer needs Chromium: `apt-get install chromium` or ATTNKIT_CHROMIUM=/path/to/chrome');
  const configFile = join(benchDir, 'vite.config.ts');
  await build({ configFile, logLevel: 'error' });
  const server: PreviewServer = await preview({ configFile, logLevel: 'error', preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('bench:peer: the preview server has no URL');
  return { url, executable, gpu: options.gpu ?? false, close: () => server.close() };
}

export type BrowserResult = EngineResult & { workers: number; crossOriginIsolated: boolean; hardwareConcurrency: number; transformersVersion: string; onnxruntimeWebVersion: string };

/**
 * Runs one engine in a fresh Chromium (new process: empty HTTP, Cache Storage, compiled-wasm and GPU
 * program caches), so its cold number is a first visit's. The page is loaded first: cold starts at engine
 * creation, after the page's scripts ran.
 */
export async function runInChromium(page: PeerPage, id: string, texts: string[], runs: number): Promise<BrowserResult> {
  const browser = await chromium.launch({ executablePath: page.executable, args: launchArgs(page) });
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

/** What the page says about the browser: cross-origin isolation, threads, the library versions. */
export type PageFacts = Pick<BrowserResult, 'crossOriginIsolated' | 'hardwareConcurrency' | 'transformersVersion' | 'onnxruntimeWebVersion'>;

/** One corpus group (corpus/corpus-engine.ts) in a fresh Chromium, as {@link runInChromium} runs an engine. */
export async function runCorpusInChromium(page: PeerPage, group: CorpusGroup, texts: string[], runs: number, warmup: number): Promise<{ results: CorpusResult[]; facts: PageFacts }> {
  const browser = await chromium.launch({ executablePath: page.executable, args: launchArgs(page) });
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
    const results = await tab.evaluate(([key, list, count, first, callings]) => (globalThis as unknown as { __peer: PagePeer }).__peer.runCorpus(key, list, count, first, callings), [group.key, texts, runs, warmup, group.specs.map((s) => s.calling)] as const);
    return { results: results.map((r) => (r.error === undefined && errors.length > 0 ? { ...r, error: errors.join('; ') } : r)), facts };
  } finally {
    await browser.close();
  }
}

/** The WebGPU adapter and WebGL renderer a fresh Chromium with this page's flags gets. */
export async function probeGpuInChromium(page: PeerPage): Promise<GpuInfo> {
  const browser = await chromium.launch({ executablePath: page.executable, args: launchArgs(page) });
  try {
    const tab = await browser.newPage();
    await tab.goto(page.url);
    await tab.waitForFunction(() => '__peer' in globalThis, undefined, { timeout: 60_000 });
    return await tab.evaluate(() => (globalThis as unknown as { __peer: PagePeer }).__peer.gpu());
  } finally {
    await browser.close();
  }
}
