import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { ALL_CASES, AREAS } from './catalogue/all-cases.js';
import { FUZZ_RUNS } from './fuzz-budget.js';
import { CHROMIUM_SUMMARY_PATH, type ChromiumSummary } from './render-chromium-summary.js';
import { renderReliability } from './render-reliability.js';
import { planRuns } from './runner/plan-runs.js';
import { runCase, WATCHDOG_MS, type CaseRun } from './runner/run-case.js';

/** Every case once per backend it declares that Node has (cpu, wasm); the others once on cpu. */
const PLANNED = planRuns(ALL_CASES, ['cpu', 'wasm']);
const NUMBER = new Map(ALL_CASES.map((c, i) => [c, i + 1]));
const runs: CaseRun[] = [];
const fromRoot = (path: string) => decodeURIComponent(new URL(`../../../${path}`, import.meta.url).pathname);
beforeAll(() => useBackend('cpu'));

describe('the bad-input catalogue (Node: cpu and wasm)', () => {
  it('has at least 60 cases across every area', () => {
    expect(ALL_CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ALL_CASES.map((c) => c.area))).toEqual(new Set(AREAS));
  });

  it.each(PLANNED.map((p) => [NUMBER.get(p.case)!, p.case.area, p.case.shownAs ?? p.backend, p.case.input, p] as const))('#%i %s (%s): %s', async (_, __, ___, ____, planned) => {
    const run = await runCase(planned.case, planned.backend);
    runs.push(run);
    expect(run.outcome === 'typed error' || run.outcome === 'documented result', `${run.outcome}: ${run.detail}`).toBe(true);
    expect(run.leaked, 'tensors left behind').toBe(0);
  }, WATCHDOG_MS + 30_000);
});

afterAll(async () => {
  await useBackend('cpu');
  if (runs.length !== PLANNED.length) return; // a filtered run must not rewrite the document (failing runs are counted in it)
  let chromium: ChromiumSummary | undefined;
  try { chromium = JSON.parse(readFileSync(fromRoot(CHROMIUM_SUMMARY_PATH), 'utf8')) as ChromiumSummary; } catch { /* rendered as missing */ }
  const rendered = renderReliability(runs, chromium, FUZZ_RUNS);
  const path = fromRoot('docs/reliability.md');
  if (process.env['ATTNKIT_UPDATE_DOCS'] === '1') {
    writeFileSync(path, rendered);
    return;
  }
  let current = '';
  try { current = readFileSync(path, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== rendered) throw new Error('docs/reliability.md is out of date with the catalogue or docs/reliability-chromium.json: run ATTNKIT_UPDATE_DOCS=1 pnpm --filter @attnkit/reliability test');
});
