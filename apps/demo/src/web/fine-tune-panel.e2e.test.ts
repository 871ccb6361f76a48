import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestPlan } from '@attnkit/test-utils/browser-test-plan';
import { findChromium } from '@attnkit/test-utils/chromium';
import type { DemoState } from './demo-state.js';
import { CHROMIUM_ARGS, demo, distinctColours, hoverCell, shownNumber, waitForRun } from './demo-page.test-helper.js';

const STEPS = 20;
const CAT_PAIR = 'The cat sat on the mat. | A cat was sitting on a mat.'; // the page's sentences 1 and 2, a trained pair
const plan = browserTestPlan(findChromium(), process.env);
if (plan.action === 'fail') throw new Error(plan.message);
const root = join(import.meta.dirname, '..', '..');
const outDir = mkdtempSync(join(tmpdir(), 'attnkit-demo-fine-tune-')); // its own build: page.e2e.test.ts builds into dist-web
let server: PreviewServer;
let browser: Browser;
const measured: Record<string, string> = {};
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b) / xs.length;

/** Opens the page on `backend` (it loads the embedded model and embeds its sentences); collects uncaught errors and console errors. */
async function openPage(backend: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  // the loader asks for optional files (modules.json, ...): their 404s are expected, any other console error is not
  page.on('console', (message) => void (message.type() === 'error' && !message.text().includes('status of 404') && errors.push(`console: ${message.text()}`)));
  await page.goto(`${server.resolvedUrls!.local[0]}?backend=${backend}`);
  await waitForRun(page, 0);
  return { page, errors };
}

/** Clicks Fine-tune; waits until the run (and the page's re-embedding after it) finished, or an error shows. */
async function clickFineTune(page: Page): Promise<DemoState> {
  const finished = (await demo(page)).fineTunes;
  await page.click('#fine-tune');
  await page.waitForFunction((before) => { const s = (window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo; return s.fineTunes > before || s.error !== undefined; }, finished, { timeout: 280_000 });
  return demo(page);
}

/** Waits until the running fine-tuning has reported `steps` steps. */
async function waitForSteps(page: Page, steps: number): Promise<void> {
  await page.waitForFunction((n) => ((window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo.fineTune?.losses.length ?? 0) >= n, steps, { timeout: 120_000 });
}

describe.skipIf(plan.action === 'skip')('the fine-tuning panel of the demo page in Chromium', () => {
  beforeAll(async () => {
    await build({ root, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    server = await preview({ root, logLevel: 'silent', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
    browser = await chromium.launch({ ...(plan.action === 'run' ? { executablePath: plan.executablePath } : {}), args: CHROMIUM_ARGS });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    console.log(`fine-tuning in the page (12 pairs a step, ${STEPS} steps, learning rate 1e-3, dropout on): ${JSON.stringify(measured)}`);
  });

  it.each(['webgl', 'wasm'] as const)('%s: the loss falls as the curve is drawn step by step, the trained pair grows more similar, the page stays responsive, no tensor is left behind', async (backend) => {
    const { page, errors } = await openPage(backend);
    expect(await page.inputValue('#pairs')).toContain(CAT_PAIR);
    const tensorsBefore = (await demo(page)).numTensors!;
    await page.fill('#steps', `${STEPS}`);
    const finished = clickFineTune(page);
    // while it trains: the curve is drawn as steps arrive, and the page answers (this evaluate runs between steps)
    await waitForSteps(page, 3);
    const during = await demo(page);
    expect(during.fineTune!.running).toBe(true);
    expect(await distinctColours(page, '#loss-curve')).toBeGreaterThan(10);
    expect(await page.textContent('#fine-tune-status')).toMatch(/^step \d+ of 20 · loss \d+\.\d{3}/);
    expect([await page.isDisabled('#fine-tune'), await page.isDisabled('#stop')]).toEqual([true, false]);
    const state = await finished;
    expect(state.error).toBeUndefined();
    const run = state.fineTune!;
    expect([run.backend, run.running, run.aborted, run.pairs, run.totalSteps, run.losses.length]).toEqual([backend, false, false, 12, STEPS, STEPS]);
    expect(run.losses.every(Number.isFinite)).toBe(true);
    const [first, last] = [mean(run.losses.slice(0, 5)), mean(run.losses.slice(-5))];
    expect(last).toBeLessThan(first);
    expect(run.after![0]![1]!).toBeGreaterThan(run.before[0]![1]!); // "The cat sat on the mat." × "A cat was sitting on a mat."
    expect(run.frames).toBeGreaterThanOrEqual(STEPS / 2); // frames drawn between steps (one a step on wasm, where a step is one long task; none if the run never yielded)
    expect(state.numTensors).toBe(tensorsBefore); // the trainer leaves nothing; the weights were updated in place
    expect(state.similarity).toEqual(run.after); // the page's own results now show the fine-tuned model
    // the curve and both heatmaps are drawn; hovering shows the values the page computed
    for (const canvas of ['#loss-curve', '#similarity-before', '#similarity-after']) expect(await distinctColours(page, canvas)).toBeGreaterThan(20);
    const afterText = await hoverCell(page, '#similarity-after', 0, 1);
    expect(afterText).toMatch(/^after fine-tuning: sentence 1 “The cat sat on the mat\.” × sentence 2 “A cat was sitting on a mat\.”: cosine -?\d\.\d{4}$/);
    expect(shownNumber(afterText)).toBe(Number(run.after![0]![1]!.toFixed(4)));
    expect(shownNumber(await hoverCell(page, '#similarity-before', 0, 1))).toBe(Number(run.before[0]![1]!.toFixed(4)));
    expect(await page.textContent('#fine-tune-status')).toMatch(new RegExp(`^fine-tuned ${STEPS} steps on ${backend} · loss \\d+\\.\\d{3} → \\d+\\.\\d{3} · \\d+\\.\\d{2} steps/s\\.`));
    expect(errors).toEqual([]);
    measured[backend] = `${run.stepsPerSecond!.toFixed(2)} steps/s after the first, loss ${first.toFixed(3)} -> ${last.toFixed(3)} (mean of the first and last 5), cosine of the cat pair ${run.before[0]![1]!.toFixed(3)} -> ${run.after![0]![1]!.toFixed(3)}, of the cat and the stock market sentences ${run.before[0]![2]!.toFixed(3)} -> ${run.after![0]![2]!.toFixed(3)}, ${run.frames} frames`;
    await page.close();
  }, 300_000);

  it('a bad pairs line is a message naming it and trains nothing; Stop ends a run after its current step, leaving no tensor', async () => {
    const { page, errors } = await openPage('wasm');
    const pairs = await page.inputValue('#pairs');
    const tensorsBefore = (await demo(page)).numTensors!;
    await page.fill('#pairs', 'The cat sat on the mat. | A cat was sitting on a mat.\nStock markets fell sharply today.\nIt rains. | Rain is falling.');
    const rejected = await clickFineTune(page);
    expect(rejected.error).toBe('Pairs, line 2: "Stock markets fell sharply today." has no separator. Write one pair a line: two sentences separated by a tab or " | ".');
    expect(await page.textContent('#error')).toBe(rejected.error);
    expect(await page.isVisible('#error')).toBe(true);
    expect(rejected.fineTune).toBeUndefined();
    // good pairs, many steps, then Stop
    await page.fill('#pairs', pairs);
    await page.fill('#steps', '500');
    await page.locator('#stop').scrollIntoViewIfNeeded();
    const stop = (await page.locator('#stop').boundingBox())!;
    const finished = clickFineTune(page);
    await waitForSteps(page, 2);
    // a person's click: one input event, handled between two steps (page.click's checks would wait for several frames)
    await page.mouse.click(stop.x + stop.width / 2, stop.y + stop.height / 2);
    const state = await finished;
    expect(state.error).toBeUndefined();
    expect(await page.isVisible('#error')).toBe(false);
    const run = state.fineTune!;
    expect(run.aborted).toBe(true);
    expect(run.losses.length).toBeGreaterThanOrEqual(2);
    expect(run.losses.length).toBeLessThanOrEqual(5);
    measured['Stop on wasm'] = `clicked once step 2 had been reported; the run ended after step ${run.losses.length}`;
    expect(run.after).toHaveLength(3);
    expect(await page.textContent('#fine-tune-status')).toMatch(new RegExp(`^stopped after ${run.losses.length} of 500 steps on wasm`));
    expect([await page.isDisabled('#fine-tune'), await page.isDisabled('#stop')]).toEqual([false, true]);
    expect(state.numTensors).toBe(tensorsBefore);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
