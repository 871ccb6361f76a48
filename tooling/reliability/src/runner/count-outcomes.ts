import type { CaseRun } from './run-case.js';

/** The outcome counts of one area on one backend: a row of docs/reliability.md (and of reliability-chromium.json). */
export interface OutcomeCounts {
  readonly area: string;
  readonly backend: string;
  readonly cases: number;
  readonly typedErrors: number;
  readonly documentedResults: number;
  readonly crashes: number;
  readonly hangs: number;
  readonly leaks: number;
  readonly garbage: number;
  readonly silentWrong: number;
}

/**
 * Counts runs per area × backend, in the order the areas and backends first appear. A leak is
 * counted apart from the outcome (a case can end well and still leave tensors behind).
 *
 * @example
 * countOutcomes(runs); // [{ area: 'masks', backend: 'cpu', cases: 20, typedErrors: 18, documentedResults: 2, crashes: 0, ... }, ...]
 */
export function countOutcomes(runs: ReadonlyArray<Pick<CaseRun, 'case' | 'backend' | 'outcome' | 'leaked'>>): OutcomeCounts[] {
  const areas = new Map<string, Map<string, Array<(typeof runs)[number]>>>();
  for (const run of runs) {
    if (!areas.has(run.case.area)) areas.set(run.case.area, new Map());
    const backends = areas.get(run.case.area)!;
    backends.set(run.backend, [...(backends.get(run.backend) ?? []), run]);
  }
  return [...areas.entries()].flatMap(([area, backends]) => [...backends.entries()].map(([backend, group]) => {
    const n = (outcome: CaseRun['outcome']) => group.filter((r) => r.outcome === outcome).length;
    return {
      area,
      backend,
      cases: group.length,
      typedErrors: n('typed error'),
      documentedResults: n('documented result'),
      crashes: n('crash'),
      hangs: n('hang'),
      leaks: group.filter((r) => r.leaked !== 0).length,
      garbage: n('garbage'),
      silentWrong: n('silent wrong'),
    };
  }));
}
