import { memory } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import type { CatalogueBackend, CatalogueCase } from '../catalogue/catalogue-case.js';
import { classifyOutcome, type CaseEnding, type Outcome } from './classify-outcome.js';

/** No case may run longer than this (a hang or a runaway size shows as a failure, not a stalled CI). */
export const WATCHDOG_MS = 30_000;

/** One run of a catalogue case on one backend. */
export interface CaseRun {
  readonly case: CatalogueCase;
  /** The backend as docs/reliability.md shows it: the one set, or the case's `shownAs` (`'cpu+wasm'`). */
  readonly backend: string;
  readonly outcome: Outcome;
  /** What went wrong, for a failing outcome; empty otherwise. */
  readonly detail: string;
  /** Tensors left behind (`tf.memory().numTensors` after minus before). */
  readonly leaked: number;
}

/**
 * Runs `testCase` under `backend` (set with `useBackend`) within the watchdog, and classifies it.
 *
 * @example
 * const { outcome, leaked } = await runCase(masksCases[0], 'wasm'); // 'typed error', 0
 */
export async function runCase(testCase: CatalogueCase, backend: CatalogueBackend, watchdogMs = WATCHDOG_MS): Promise<CaseRun> {
  await useBackend(backend);
  const before = memory().numTensors;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchdog = new Promise<CaseEnding>((resolve) => { timer = setTimeout(() => resolve({ hung: watchdogMs }), watchdogMs); });
  const run = (async (): Promise<CaseEnding> => ({ returned: await testCase.run() }))().catch((error: unknown) => ({ threw: error }));
  const ending = await Promise.race([run, watchdog]);
  clearTimeout(timer);
  const leaked = 'hung' in ending ? 0 : memory().numTensors - before;
  const { outcome, detail } = await classifyOutcome(testCase, ending);
  return { case: testCase, backend: testCase.shownAs ?? backend, outcome, detail, leaked };
}
