import type { Browser } from 'playwright';

/** What the README's Vite page showed, and what went wrong on the way. */
export interface SimilarityPage {
  /** The similarity the page printed. */
  readonly similarity: number;
  readonly crossOriginIsolated: boolean;
  /** Console errors and uncaught exceptions (the browser's favicon request answered 404 left out). */
  readonly errors: readonly string[];
  /** Every `.wasm` URL the page requested. */
  readonly wasmUrls: readonly string[];
}

/**
 * Opens `url` in a new page and waits until `#similarity` reads `similarity: <number>`; rejects
 * with the page's errors at its first uncaught exception, or if it shows none in `timeoutMs`.
 */
export async function openSimilarityPage(browser: Browser, url: string, timeoutMs = 60_000): Promise<SimilarityPage> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const wasmUrls: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  let failed: (error: Error) => void = () => {};
  const uncaught = new Promise<never>((_, reject) => (failed = reject));
  uncaught.catch(() => {}); // rejected only when the race below is lost to it
  page.on('pageerror', (error) => {
    errors.push(`uncaught: ${error.message}${/\n\s*at .*/.exec(error.stack ?? '')?.[0].trim().replace(/^at /, ' at ') ?? ''}`);
    failed(new Error('an uncaught exception'));
  });
  page.on('request', (request) => void (new URL(request.url()).pathname.endsWith('.wasm') && wasmUrls.push(request.url())));
  try {
    await page.goto(url);
    const text = /similarity: (-?\d+\.\d+)/;
    const shows = page.waitForFunction((source) => new RegExp(source).test(document.getElementById('similarity')?.textContent ?? ''), text.source, { timeout: timeoutMs });
    await Promise.race([shows, uncaught]).catch((error: unknown) => {
      throw new Error(`${url} showed no similarity (${(error as Error).message.split('\n')[0]}); page errors:\n${errors.join('\n') || 'none'}`);
    });
    const shown = (await page.textContent('#similarity')) ?? '';
    return { similarity: Number(text.exec(shown)![1]), crossOriginIsolated: await page.evaluate(() => crossOriginIsolated), errors, wasmUrls };
  } finally {
    await page.close();
  }
}
