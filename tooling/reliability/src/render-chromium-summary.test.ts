import { describe, expect, it } from 'vitest';
import { renderChromiumSummary } from './render-chromium-summary.js';

describe('renderChromiumSummary', () => {
  it('is JSON with one row per line, read back as it was given', () => {
    const row = { area: 'masks', backend: 'webgl', cases: 2, typedErrors: 1, documentedResults: 1, crashes: 0, hangs: 0, leaks: 0, garbage: 0, silentWrong: 0 };
    const summary = { catalogueCases: 2, rows: [row, { ...row, backend: 'cpu' }], excluded: [{ area: 'extremes', backend: 'cpu+webgl', cases: 8, reason: 'documented' }] };
    const text = renderChromiumSummary(summary);
    expect(JSON.parse(text)).toEqual({ generatedBy: expect.stringContaining('catalogue.browser.test.ts') as unknown as string, ...summary });
    expect(text.split('\n').filter((line) => line.includes('"area"'))).toHaveLength(3);
    expect(JSON.parse(renderChromiumSummary({ catalogueCases: 0, rows: [], excluded: [] }))).toMatchObject({ rows: [], excluded: [] });
  });
});
