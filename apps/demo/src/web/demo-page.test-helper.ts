import type { Page } from 'playwright';
import type { DemoState } from './demo-state.js';

/** The page's `window.__attnkitDemo` (see main.ts), as it is now. */
export const demo = (page: Page): Promise<DemoState> => page.evaluate(() => (window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo);

/** Chromium's flags for the page's tests: no sandbox (containers), nothing fetched in the background, WebGL through SwiftShader. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader'];

/** Waits until the page has finished more than `runs` runs, or shows an error (which fails the test). */
export async function waitForRun(page: Page, runs: number): Promise<void> {
  await page.waitForFunction((before) => { const s = (window as unknown as { __attnkitDemo?: DemoState }).__attnkitDemo; return (s?.runs ?? 0) > before || s?.error !== undefined; }, runs, { timeout: 120_000 });
  const error = (await demo(page)).error;
  if (error !== undefined) throw new Error(`page error: ${error}`);
}

/** Clicks `selector` and waits until the action it starts has finished (the page's `actions` grew), failed or not; returns the page's state then. */
export async function clickAndWait(page: Page, selector: string): Promise<DemoState> {
  const before = (await demo(page)).actions;
  await page.click(selector);
  await page.waitForFunction((n) => (window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo.actions > n, before, { timeout: 120_000 });
  return demo(page);
}

/** Picks `backend` in the page's backend picker and waits until the page has switched (and embedded its sentences there). */
export async function pickBackend(page: Page, backend: string): Promise<DemoState> {
  const before = (await demo(page)).actions;
  await page.selectOption('#backend', backend);
  await page.waitForFunction((n) => (window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo.actions > n, before, { timeout: 120_000 });
  return demo(page);
}

/** Distinct colours on a canvas: a drawn heatmap has many, a blank one has one or two. */
export function distinctColours(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const canvas = document.querySelector(sel) as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return colours.size;
  }, selector);
}

/** Moves the mouse to the centre of cell (row, column) of the heatmap `selector`; returns the tooltip's text. */
export async function hoverCell(page: Page, selector: string, row: number, column: number): Promise<string> {
  const point = await page.evaluate(({ sel, row, column }) => {
    const canvas = document.querySelector(sel) as HTMLCanvasElement;
    const { left, top, cell } = canvas.dataset;
    const scale = canvas.clientWidth / canvas.width;
    canvas.scrollIntoView({ block: 'center' });
    const moved = canvas.getBoundingClientRect(); // border box, in the viewport
    return { x: moved.left + canvas.clientLeft + (Number(left) + (column + 0.5) * Number(cell)) * scale, y: moved.top + canvas.clientTop + (Number(top) + (row + 0.5) * Number(cell)) * scale };
  }, { sel: selector, row, column });
  await page.mouse.move(point.x, point.y);
  await page.waitForSelector('#tooltip:not([hidden])');
  return (await page.textContent('#tooltip'))!;
}

/** The number a tooltip ends with (4 decimals). */
export const shownNumber = (text: string) => Number(/(-?\d+\.\d+)$/.exec(text)?.[1]);
