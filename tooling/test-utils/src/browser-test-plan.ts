import { CHROMIUM_HOWTO, type ChromiumLocation } from './find-chromium.js';

/** What the browser test run does with the Chromium that was (or was not) found. */
export type BrowserTestPlan =
  | { readonly action: 'run'; readonly executablePath: string }
  | { readonly action: 'skip'; readonly message: string }
  | { readonly action: 'fail'; readonly message: string };

/**
 * Decides the browser run: run with the Chromium found; otherwise skip loudly on a user's machine,
 * and fail under `CI=true`, where a missing browser must never pass as green.
 *
 * @example
 * browserTestPlan(findChromium(), process.env); // { action: 'run', executablePath: '/usr/bin/chromium' }
 */
export function browserTestPlan(location: ChromiumLocation, env: Record<string, string | undefined>): BrowserTestPlan {
  if (location.path !== undefined) return { action: 'run', executablePath: location.path };
  const message = `Browser tests need Chromium; none found (looked at ${location.tried.join(', ')}). ${CHROMIUM_HOWTO}`;
  return env['CI'] === 'true'
    ? { action: 'fail', message: `${message} Under CI=true a missing browser is a failure.` }
    : { action: 'skip', message: `*** SKIPPING BROWSER TESTS *** ${message}` };
}
