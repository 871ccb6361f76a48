import { readFileSync, writeFileSync } from 'node:fs';
import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { AttnkitError } from '@attnkit/errors';
import { ALL_CASES, AREAS } from './catalogue/all-cases.js';
import type { CatalogueCase } from './catalogue/catalogue-case.js';
import { FUZZ_RUNS } from './fuzz-budget.js';
import { renderReliability, type CaseOutcome } from './render-reliability.js';

const CASES: readonly CatalogueCase[] = ALL_CASES;
const outcomes: CaseOutcome[] = [];
/** No case may run longer than this (a hang or a runaway size shows as a failure, not a stalled CI). */
const WATCHDOG_MS = 30_000;
beforeAll(() => useBackend('cpu'));

describe('the bad-input catalogue', () => {
  it('has at least 60 cases across every area', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((c) => c.area))).toEqual(new Set(AREAS));
  });

  it.each(CASES.map((c, i) => [i + 1, c.area, c.input, c] as const))('#%i %s: %s', async (_, __, ___, testCase) => {
    const before = memory().numTensors;
    let value: unknown;
    let thrown: unknown;
    const started = performance.now();
    try {
      value = await testCase.run();
    } catch (error) {
      thrown = error;
    }
    const elapsed = performance.now() - started;
    expect(elapsed, `the watchdog: every case ends within ${WATCHDOG_MS / 1000} s`).toBeLessThan(WATCHDOG_MS);
    const leaked = memory().numTensors - before;
    let outcome: CaseOutcome['outcome'];
    if (testCase.error !== undefined) {
      const anyTyped = testCase.error.name === 'AttnkitError'; // any AttnkitError subclass (the entry-point sweep)
      outcome = thrown instanceof AttnkitError && (anyTyped || thrown.name === testCase.error.name) ? 'typed error' : thrown === undefined ? 'garbage' : 'crash';
      expect(thrown, `expected ${testCase.error.name}; got ${String((thrown as Error | undefined)?.message).slice(0, 200)}`).toBeInstanceOf(AttnkitError);
      if (!anyTyped) expect((thrown as Error).name).toBe(testCase.error.name);
      if (typeof testCase.error.message === 'string') expect((thrown as Error).message).toBe(testCase.error.message);
      else expect((thrown as Error).message).toMatch(testCase.error.message);
    } else {
      const ok = thrown === undefined && (await testCase.safe!.check(value));
      outcome = ok ? 'documented result' : thrown === undefined ? 'garbage' : 'crash';
      expect(thrown).toBeUndefined();
      expect(ok, `documented result: ${testCase.safe!.result}; got ${JSON.stringify(value)?.slice(0, 200)}`).toBe(true);
    }
    outcomes.push({ case: testCase, outcome, leaked });
    expect(leaked, 'tensors left behind').toBe(0);
  }, 60_000);
});

afterAll(() => {
  if (outcomes.length !== CASES.length) return; // a filtered or failed run must not rewrite the document
  const rendered = renderReliability(outcomes, FUZZ_RUNS);
  const path = decodeURIComponent(new URL('../../../docs/reliability.md', import.meta.url).pathname);
  if (process.env['ATTNKIT_UPDATE_DOCS'] === '1') {
    writeFileSync(path, rendered);
    return;
  }
  let current = '';
  try { current = readFileSync(path, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== rendered) throw new Error('docs/reliability.md is out of date with the catalogue: run ATTNKIT_UPDATE_DOCS=1 pnpm --filter @attnkit/reliability test');
});
