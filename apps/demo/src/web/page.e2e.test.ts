import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxDifference } from '@attnkit/backends';
import { browserTestPlan } from '@attnkit/test-utils/browser-test-plan';
import { findChromium } from '@attnkit/test-utils/chromium';
import { parseDemoArgs, runDemo } from '@attnkit/cli';

const SENTENCES = ['The cat sat on the mat.', 'A cat was sitting on a mat.', 'Stock markets fell sharply today.']; // the page's defaults
const TOLERANCE = { cpu: 1e-4, wasm: 1e-4, webgl: 1e-3 };
const plan = browserTestPlan(findChromium(), process.env);
if (plan.action === 'fail') throw new Error(plan.message);
const root = join(import.meta.dirname, '..', '..');
let server: PreviewServer;
let browser: Browser;
let reference: number[][];
const agreement: Record<string, number> = {};

async function openAndEncode(backend: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  await page.goto(`${server.resolvedUrls!.local[0]}?backend=${backend}`);
  await page.waitForFunction(() => !(document.querySelector('#run') as HTMLButtonElement).disabled || (window as { __attnkitDemo?: { error?: string } }).__attnkitDemo?.error, null, { timeout: 120_000 });
  await page.click('#run');
  await page.waitForFunction(() => { const s = (window as { __attnkitDemo?: { runs: number; error?: string } }).__attnkitDemo; return (s?.runs ?? 0) > 0 || s?.error !== undefined; }, null, { timeout: 120_000 });
  const error = await page.evaluate(() => (window as { __attnkitDemo?: { error?: string } }).__attnkitDemo?.error);
  if (error !== undefined) throw new Error(`page error on ${backend}: ${error}`);
  return page;
}

/** Distinct colours on a canvas: a drawn heatmap has many, a blank one has one or two. */
function distinctColours(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const canvas = document.querySelector(sel) as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return colours.size;
  }, selector);
}

describe.skipIf(plan.action === 'skip')('the demo web page in Chromium (built with Vite, served cross-origin isolated)', () => {
  beforeAll(async () => {
    await build({ root, logLevel: 'silent' });
    server = await preview({ root, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' } });
    browser = await chromium.launch({
      ...(plan.action === 'run' ? { executablePath: plan.executablePath } : {}),
      args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader'],
    });
    reference = (await runDemo(parseDemoArgs(['--backend', 'cpu', '--compare', '', ...SENTENCES.flatMap((s) => ['--text', s])]))).embeddings;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    console.log(`page embeddings vs Node cpu (max abs diff): ${JSON.stringify(agreement)}`);
  });

  it.each(['cpu', 'wasm', 'webgl'] as const)('%s: embeddings equal the Node cpu result, and the heatmaps are drawn', async (backend) => {
    const page = await openAndEncode(backend);
    const embeddings = await page.evaluate(() => (window as { __attnkitDemo?: { embeddings?: number[][] } }).__attnkitDemo!.embeddings!);
    agreement[backend] = maxDifference(embeddings.flat(), reference.flat()).maxAbsDiff;
    expect(agreement[backend]).toBeLessThanOrEqual(TOLERANCE[backend]);
    expect(await distinctColours(page, '#similarity')).toBeGreaterThan(20);
    expect(await page.locator('#attention canvas').count()).toBe(2 * 4); // layers × heads of the embedded model
    expect(await distinctColours(page, '#attention canvas')).toBeGreaterThan(20);
    expect(await page.textContent('#capabilities')).toContain(`${backend}: float32`);
    expect(await page.textContent('#timings')).toMatch(/first forward \(cold\): \d+ ms · warm median: [\d.]+ ms/);
    await page.close();
  }, 120_000);

  it('compares every backend the browser offers against cpu, and saves the README screenshot', async () => {
    const page = await openAndEncode('wasm');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // What useBackend('wasm') gives a cross-origin-isolated page: every logical core the page sees, at most 8.
    const threads = Math.min(8, await page.evaluate(() => navigator.hardwareConcurrency));
    expect(await page.textContent('#capabilities')).toContain(`threads ${threads} (cross-origin isolated)`);
    await page.click('#compare');
    await page.waitForFunction(() => (window as { __attnkitDemo?: { compare?: object } }).__attnkitDemo?.compare !== undefined, null, { timeout: 120_000 });
    const table = await page.evaluate(() => (window as { __attnkitDemo?: { compare?: Record<string, number> } }).__attnkitDemo!.compare!);
    console.log(`page "Compare backends" table (max abs diff of last_hidden_state vs cpu): ${JSON.stringify(table)}`);
    expect(Object.keys(table).sort()).toEqual(['cpu', 'wasm', 'webgl']); // webgpu needs --enable-unsafe-webgpu, not given here
    for (const diff of Object.values(table)) expect(diff).toBeLessThanOrEqual(1e-3);
    const shot = process.env['ATTNKIT_UPDATE_DOCS'] === '1' ? join(root, '..', '..', 'docs', 'demo.png') : join(mkdtempSync(join(tmpdir(), 'attnkit-demo-')), 'demo.png');
    await page.screenshot({ path: shot, fullPage: true });
    await page.close();
  }, 180_000);

  it("hostile inputs: no text, a model URL that 404s or serves HTML, an unknown backend — each a clear error, and the page keeps working", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.resolvedUrls!.local[0]}?backend=nonsense`);
    await page.waitForFunction(() => !(document.querySelector('#run') as HTMLButtonElement).disabled, null, { timeout: 120_000 });
    expect(await page.inputValue('#backend')).toBe('wasm'); // an unknown ?backend= falls back to the default
    const errorAfter = async (action: () => Promise<void>): Promise<string> => {
      await page.evaluate(() => { delete (window as { __attnkitDemo?: { error?: string } }).__attnkitDemo!.error; });
      await action();
      await page.waitForFunction(() => (window as { __attnkitDemo?: { error?: string } }).__attnkitDemo?.error !== undefined, null, { timeout: 60_000 });
      expect(await page.isVisible('#error')).toBe(true);
      return (await page.evaluate(() => (window as { __attnkitDemo?: { error?: string } }).__attnkitDemo!.error!));
    };
    await page.fill('#texts', '  \n \n');
    expect(await errorAfter(() => page.click('#run'))).toBe('Type at least one sentence.');
    await page.fill('#model-url', '/models/no-such-model/');
    expect(await errorAfter(() => page.click('#load-url'))).toMatch(/no-such-model/);
    await page.fill('#model-url', '/');
    expect(await errorAfter(() => page.click('#load-url'))).toMatch(/config\.json/);
    // the embedded model is still loaded: encoding works
    await page.fill('#texts', SENTENCES.join('\n'));
    const runs = await page.evaluate(() => (window as { __attnkitDemo?: { runs: number } }).__attnkitDemo!.runs);
    expect(await page.isDisabled('#run')).toBe(false);
    await page.click('#run');
    await page.waitForFunction((before) => (window as { __attnkitDemo?: { runs: number } }).__attnkitDemo!.runs > before, runs, { timeout: 60_000 });
    const embeddings = await page.evaluate(() => (window as { __attnkitDemo?: { embeddings?: number[][] } }).__attnkitDemo!.embeddings!);
    expect(maxDifference(embeddings.flat(), reference.flat()).maxAbsDiff).toBeLessThanOrEqual(TOLERANCE.wasm);
    await page.close();
  }, 180_000);
});
