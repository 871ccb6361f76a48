import { join } from 'node:path';
import { chromium } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
// Relative source import: @attnkit/test-utils is not a dependency of the bench (its manifest is shared).
import { findChromium } from '../../../test-utils/src/find-chromium.js';
import { benchDir } from '../peer/paths.js';
import type { BandwidthResult } from './bandwidth.js';
import type { EngineModelResult } from './measure.js';
import type { PageGeneration } from './page/main.js';

/** Chromium flags as the peer bench uses them. */
const CHROMIUM_ARGS = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader'];

export interface GenerationPage {
  readonly url: string;
  readonly executable: string;
  close(): Promise<void>;
}

/** Builds the page (vite.generation.config.ts) and serves the build on 127.0.0.1, cross-origin isolated. */
export async function serveGenerationPage(): Promise<GenerationPage> {
  const executable = findChromium().path;
  if (executable === undefined) throw new Error('bench:generation needs Chromium: `apt-get install chromium` or ATTNKIT_CHROMIUM=/path/to/chrome');
  const configFile = join(benchDir, 'vite.generation.config.ts');
  await build({ configFile, logLevel: 'error' });
  const server: PreviewServer = await preview({ configFile, logLevel: 'error', preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('bench:generation: the preview server has no URL');
  return { url, executable, close: () => server.close() };
}

export interface PageFacts {
  readonly crossOriginIsolated: boolean;
  readonly hardwareConcurrency: number;
  readonly transformersVersion: string;
  readonly onnxruntimeWebVersion: string;
  readonly chromium: string;
}

/** Opens a fresh Chromium (empty caches, new process) on the page and runs `job` in it. */
async function inFreshChromium<T>(page: GenerationPage, job: (generation: PageGeneration) => Promise<T>, onError: (message: string) => T): Promise<T & { facts: PageFacts }> {
  const browser = await chromium.launch({ executablePath: page.executable, args: CHROMIUM_ARGS });
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.url);
    await tab.waitForFunction(() => '__generation' in globalThis, undefined, { timeout: 60_000 });
    const facts = await tab.evaluate(() => {
      const g = (globalThis as unknown as { __generation: PageGeneration }).__generation;
      return { crossOriginIsolated: g.crossOriginIsolated, hardwareConcurrency: g.hardwareConcurrency, transformersVersion: g.transformersVersion, onnxruntimeWebVersion: g.onnxruntimeWebVersion };
    });
    let result: T;
    try {
      result = await tab.evaluate(`(${job.toString()})(globalThis.__generation)`);
    } catch (error) {
      result = onError([error instanceof Error ? error.message : String(error), ...errors].join('; '));
    }
    return { ...result, facts: { ...facts, chromium: browser.version() } };
  } finally {
    await browser.close();
  }
}

/** One engine on one model in a fresh Chromium. */
export async function runGenerationInChromium(page: GenerationPage, id: string, model: string, prompts: number[][], runs: number, batches: number[], threads: number): Promise<EngineModelResult & { facts: PageFacts }> {
  const args = JSON.stringify([id, model, prompts, runs, batches, threads]);
  return inFreshChromium(page, new Function('g', `return g.run(...${args});`) as (g: PageGeneration) => Promise<EngineModelResult>, (error) => ({ engine: id, model, loadMs: NaN, batches: [], threads: '', error }));
}

/** The bandwidth probe on `threads` workers in a fresh Chromium. */
export async function bandwidthInChromium(page: GenerationPage, threads: number): Promise<BandwidthResult & { error?: string; facts: PageFacts }> {
  return inFreshChromium(page, new Function('g', `return g.bandwidth(${threads});`) as (g: PageGeneration) => Promise<BandwidthResult>, (error) => ({ threads, gbPerSecond: NaN, passes: [], bytes: 0, method: '', error }));
}
