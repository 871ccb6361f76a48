import { existsSync } from 'node:fs';

/** Where Chromium was found, and every place that was looked at. */
export interface ChromiumLocation {
  readonly path: string | undefined;
  readonly tried: readonly string[];
}

/** How to get a browser for the browser tests, printed when none is found. */
export const CHROMIUM_HOWTO =
  'Install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`) or point ATTNKIT_CHROMIUM at a ' +
  'Chromium/Chrome executable, e.g. `ATTNKIT_CHROMIUM=/opt/chrome/chrome npm test`.';

/**
 * Finds a Chromium executable: `$ATTNKIT_CHROMIUM`, then `$CHROME_PATH`, then the usual system paths.
 * A variable that names a missing file is reported, not skipped silently.
 */
export function findChromium(env: Record<string, string | undefined> = process.env): ChromiumLocation {
  const candidates = [
    env['ATTNKIT_CHROMIUM'],
    env['CHROME_PATH'],
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ].filter((p): p is string => p !== undefined && p !== '');
  return { path: candidates.find((p) => existsSync(p)), tried: candidates };
}
