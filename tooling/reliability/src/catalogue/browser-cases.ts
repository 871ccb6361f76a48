import { onEachBackend, shownAs, type CatalogueCase } from './catalogue-case.js';
import { combinationsCases } from './combinations-cases.js';
import { extremesCases } from './extremes-cases.js';
import { tensorCases } from './tensor-cases.js';

/**
 * The documented WebGL difference (masks README, "Extreme scores on every backend"; left out the
 * same way by masks.parity.test.ts): allowed scores near the float32 limit overflow WebGL's
 * arithmetic, so those rows are not the exact softmax. These extremes cases do not run on webgl.
 */
export const WEBGL_DIFFERENCE = {
  reason: 'allowed scores near the float32 limit (-3.4e38) overflow WebGL arithmetic (masks README; masks.parity.test.ts)',
  applies: (testCase: CatalogueCase) => testCase.area === 'extremes' && testCase.input.includes('-3.4e38'),
};

/**
 * Every case whose module loads in a browser (no `node:` imports, no files): the tensor-only areas
 * on cpu, wasm and webgl; the extremes compared between cpu and wasm, and between cpu and webgl; the
 * combinations, each on the backend it names (cpu or wasm), compared with PyTorch.
 */
export const browserCases: CatalogueCase[] = [
  ...tensorCases,
  ...shownAs('cpu+wasm', extremesCases),
  ...shownAs('cpu+webgl', onEachBackend(['webgl'], extremesCases.filter((c) => !WEBGL_DIFFERENCE.applies(c)))),
  ...shownAs('cpu+wasm', combinationsCases),
];

/** What browserCases leaves out, and why: one entry per documented difference. */
export const browserExclusions = [
  { area: 'extremes', backend: 'cpu+webgl', cases: extremesCases.filter(WEBGL_DIFFERENCE.applies).length, reason: WEBGL_DIFFERENCE.reason },
];
