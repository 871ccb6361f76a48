import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { useBackend } from '@attnkit/backends';
import { browserCases, browserExclusions } from './catalogue/browser-cases.js';
import { tensorCases } from './catalogue/tensor-cases.js';
import { CHROMIUM_SUMMARY_PATH, renderChromiumSummary } from './render-chromium-summary.js';
import { countOutcomes } from './runner/count-outcomes.js';
import { planRuns } from './runner/plan-runs.js';
import { runCase, WATCHDOG_MS, type CaseRun } from './runner/run-case.js';

/** The catalogue cases that load in a browser, once per backend they declare (cpu, wasm, webgpu, webgl). */
const BACKENDS = ['cpu', 'wasm', 'webgpu', 'webgl'] as const;
/** Backend by backend (one switch each), in this order. */
const PLANNED = planRuns(browserCases, BACKENDS).sort((a, b) => BACKENDS.indexOf(a.backend) - BACKENDS.indexOf(b.backend));
const runs: CaseRun[] = [];
/** Relative to this package (the Vitest root), where commands.readFile and writeFile resolve paths. */
const SUMMARY = `../../${CHROMIUM_SUMMARY_PATH}`;
/** Passed into the page by the browser config's `test.env`. */
const UPDATE = (import.meta as unknown as { env: Record<string, string | undefined> }).env['ATTNKIT_UPDATE_DOCS'] === '1';
beforeAll(() => useBackend('cpu'));

describe('the bad-input catalogue (Chromium: cpu, wasm, webgpu and webgl)', () => {
  it('runs every tensor-only case on cpu, wasm, webgpu and webgl', () => {
    for (const testCase of tensorCases) expect(PLANNED.filter((p) => p.case === testCase).map((p) => p.backend)).toEqual(['cpu', 'wasm', 'webgpu', 'webgl']);
  });

  it.each(PLANNED.map((p) => [p.case.area, p.case.shownAs ?? p.backend, p.case.input, p] as const))('%s (%s): %s', async (_, __, ___, planned) => {
    const run = await runCase(planned.case, planned.backend);
    runs.push(run);
    expect(run.outcome === 'typed error' || run.outcome === 'documented result', `${run.outcome}: ${run.detail}`).toBe(true);
    expect(run.leaked, 'tensors left behind').toBe(0);
  }, WATCHDOG_MS + 30_000);
});

afterAll(async () => {
  await useBackend('cpu');
  if (runs.length !== PLANNED.length) return; // a filtered run must not rewrite the summary (failing runs are counted in it)
  const rendered = renderChromiumSummary({ catalogueCases: new Set(runs.map((r) => r.case)).size, rows: countOutcomes(runs), excluded: browserExclusions });
  if (UPDATE) {
    await commands.writeFile(SUMMARY, rendered);
    return;
  }
  let current = '';
  try { current = await commands.readFile(SUMMARY); } catch { /* missing counts as stale */ }
  if (current !== rendered) throw new Error(`${CHROMIUM_SUMMARY_PATH} is out of date with the Chromium catalogue: run ATTNKIT_UPDATE_DOCS=1 pnpm --filter @attnkit/reliability test:browser`);
});
