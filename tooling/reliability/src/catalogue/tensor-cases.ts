import { attentionCases } from './attention-cases.js';
import { onEachBackend, type CatalogueCase } from './catalogue-case.js';
import { masksCases } from './masks-cases.js';
import { nnCases } from './nn-cases.js';
import { positionsCases } from './positions-cases.js';
import { scorersCases } from './scorers-cases.js';

/**
 * The tensor-only areas (no files, no Node APIs): each case runs once per backend, on cpu and wasm
 * in Node and on cpu, wasm and webgl in Chromium (not webgpu: in headless Chromium its SwiftShader
 * device fails buffer creation after the WebGL runs, so its results would be the harness's, not attnkit's). A new pure-tensor area opts in here.
 */
export const tensorCases: CatalogueCase[] = onEachBackend(['cpu', 'wasm', 'webgl'], [
  ...masksCases,
  ...nnCases,
  ...scorersCases,
  ...attentionCases,
  ...positionsCases,
]);
