import { describe, expect, it } from 'vitest';
import { browserTestPlan } from './browser-test-plan.js';
import { findChromium } from './find-chromium.js';

const none = { path: undefined, tried: ['/usr/bin/chromium'] };

describe('browserTestPlan', () => {
  it('runs with the browser found', () => {
    expect(browserTestPlan({ path: '/usr/bin/chromium', tried: [] }, {})).toEqual({ action: 'run', executablePath: '/usr/bin/chromium' });
  });
  it('fails under CI=true when no browser is found, saying how to get one', () => {
    const plan = browserTestPlan(none, { CI: 'true' });
    expect(plan.action).toBe('fail');
    expect(plan).toMatchObject({ message: expect.stringContaining('sudo apt-get install chromium') });
    expect(plan).toMatchObject({ message: expect.stringContaining('Under CI=true a missing browser is a failure.') });
  });
  it('skips loudly on a user machine', () => {
    expect(browserTestPlan(none, {})).toMatchObject({ action: 'skip', message: expect.stringMatching(/^\*\*\* SKIPPING BROWSER TESTS \*\*\* .*looked at \/usr\/bin\/chromium/) });
  });
});

describe('findChromium', () => {
  it('prefers $ATTNKIT_CHROMIUM and reports every place it looked', () => {
    const found = findChromium({ ATTNKIT_CHROMIUM: process.execPath });
    expect(found.path).toBe(process.execPath);
    const missing = findChromium({ ATTNKIT_CHROMIUM: '/nope/chrome', CHROME_PATH: '/nope/chrome2' });
    expect(missing.tried.slice(0, 2)).toEqual(['/nope/chrome', '/nope/chrome2']);
    expect(missing.path).not.toBe('/nope/chrome');
  });
});
