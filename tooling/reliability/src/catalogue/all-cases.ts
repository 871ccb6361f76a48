import { attentionCases } from './attention-cases.js';
import { backendsCases } from './backends-cases.js';
import { bertCases } from './bert-cases.js';
import type { CatalogueCase } from './catalogue-case.js';
import { cliCases } from './cli-cases.js';
import { combinationsCases } from './combinations-cases.js';
import { concurrencyCases } from './concurrency-cases.js';
import { entryPointCases } from './entry-points-cases.js';
import { extremesCases } from './extremes-cases.js';
import { loadersCases } from './loaders-cases.js';
import { masksCases } from './masks-cases.js';
import { nnCases } from './nn-cases.js';
import { scorersCases } from './scorers-cases.js';
import { sizesCases, wasmGuardCases } from './sizes-cases.js';
import { tokenizerCases } from './tokenizer-cases.js';
import { untrustedCases } from './untrusted-cases.js';

/** Every case of the Node catalogue, in the order docs/reliability.md lists them. */
export const ALL_CASES: readonly CatalogueCase[] = [
  ...masksCases,
  ...nnCases,
  ...scorersCases,
  ...attentionCases,
  ...bertCases,
  ...loadersCases,
  ...tokenizerCases,
  ...cliCases,
  ...backendsCases,
  ...concurrencyCases,
  ...untrustedCases,
  ...extremesCases,
  ...combinationsCases,
  ...sizesCases,
  ...wasmGuardCases,
  ...entryPointCases,
];

/** The areas the catalogue must cover (a missing or misspelled area fails the run). */
export const AREAS: readonly string[] = [
  'masks',
  'nn',
  'scorers',
  'attention',
  'bert',
  'sentence',
  'loaders',
  'tokenizer',
  'cli',
  'backends',
  'concurrency',
  'untrusted files',
  'extremes',
  'combinations',
  'sizes and memory',
  'entry points',
];
