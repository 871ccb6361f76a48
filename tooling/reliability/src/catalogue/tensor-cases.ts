import { attentionCases } from './attention-cases.js';
import { onEachBackend, type CatalogueCase } from './catalogue-case.js';
import { masksCases } from './masks-cases.js';
import { nnCases } from './nn-cases.js';
import { positionsCases } from './positions-cases.js';
import { scorersCases } from './scorers-cases.js';

/**
 * The tensor-only areas (no files, no Node APIs): each case runs once per backend, on cpu and wasm
 * in Node and on cpu, wasm, webgpu and webgl in Chromium (webgpu before webgl; the cases read values
 * asynchronously only, as tfjs-webgpu's synchronous read goes through a canvas that SwiftShader returns
 * as zeros). A new pure-tensor area opts in here.
 */
export const tensorCases: CatalogueCase[] = onEachBackend(['cpu', 'wasm', 'webgpu', 'webgl'], [
  ...masksCases,
  ...nnCases,
  ...scorersCases,
  ...attentionCases,
  ...positionsCases,
]);
