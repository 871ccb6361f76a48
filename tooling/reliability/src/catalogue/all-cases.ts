import { backendsCases } from './backends-cases.js';
import { bertCases } from './bert-cases.js';
import { onEachBackend, shownAs, type CatalogueCase } from './catalogue-case.js';
import { cpuResidentAttentionCases } from './attention-cases.js';
import { chatCases } from './chat-cases.js';
import { cliCases } from './cli-cases.js';
import { combinationsCases } from './combinations-cases.js';
import { concurrencyCases } from './concurrency-cases.js';
import { causalLmLossCases } from './causal-lm-loss-cases.js';
import { decodersCases } from './decoders-cases.js';
import { decoderEmbeddingCases } from './decoder-embedding-cases.js';
import { entryPointCases } from './entry-points-cases.js';
import { extremesCases } from './extremes-cases.js';
import { hostObjectsCases } from './host-objects-cases.js';
import { loadersCases } from './loaders-cases.js';
import { relativeRoformerCases } from './relative-roformer-cases.js';
import { modernbertCases } from './modernbert-cases.js';
import { retrievalCases } from './retrieval-cases.js';
import { sentenceModelPositionsCases, sentencePositionsCases } from './sentence-positions-cases.js';
import { tokenizersPositionsCases } from './tokenizers-positions-cases.js';
import { hubPositionsCases } from './hub-positions-cases.js';
import { modelsPositionsCases } from './models-positions-cases.js';
import { trainPositionsCases } from './train-positions-cases.js';
import { morePositionsCases } from './more-positions-cases.js';
import { backendsPositionsCases } from './backends-positions-cases.js';
import { kernelsPositionsCases } from './kernels-positions-cases.js';
import { errorsPositionsCases } from './errors-positions-cases.js';
import { backendsMorePositionsCases } from './backends-more-positions-cases.js';
import { encodersPositionsCases } from './encoders-positions-cases.js';
import { blocksPositionsCases } from './blocks-positions-cases.js';
import { hubMorePositionsCases } from './hub-more-positions-cases.js';
import { decodersPositionsCases, tokenizersMorePositionsCases } from './decoders-positions-cases.js';
import { trainMorePositionsCases } from './train-more-positions-cases.js';
import { sizesCases, wasmGuardCases } from './sizes-cases.js';
import { tensorCases } from './tensor-cases.js';
import { tokenizerCases } from './tokenizer-cases.js';
import { tokenRowsCases } from './token-rows-cases.js';
import { untrustedCases } from './untrusted-cases.js';

/**
 * Every case of the Node catalogue, in the order docs/reliability.md lists them. Tensor-only areas
 * run once per backend (tensor-cases.ts); areas that compare cpu and wasm inside are shown as such.
 */
export const ALL_CASES: readonly CatalogueCase[] = [
  ...tensorCases,
  ...onEachBackend(['cpu', 'wasm'], cpuResidentAttentionCases),
  ...onEachBackend(['cpu', 'wasm'], sentencePositionsCases),
  ...onEachBackend(['cpu', 'wasm'], tokenRowsCases),
  ...bertCases,
  ...decodersCases,
  ...causalLmLossCases,
  ...decoderEmbeddingCases,
  ...loadersCases,
  ...relativeRoformerCases,
  ...tokenizerCases,
  ...cliCases,
  ...chatCases,
  ...retrievalCases,
  ...backendsCases,
  ...shownAs('cpu+wasm', concurrencyCases),
  ...untrustedCases,
  ...hostObjectsCases,
  ...shownAs('cpu+wasm', extremesCases),
  ...shownAs('cpu+wasm', combinationsCases),
  ...shownAs('cpu+wasm', [...sizesCases, ...wasmGuardCases]),
  ...entryPointCases,
  ...modernbertCases,
  ...tokenizersPositionsCases,
  ...hubPositionsCases,
  ...modelsPositionsCases,
  ...sentenceModelPositionsCases,
  ...trainPositionsCases,
  ...morePositionsCases,
  ...backendsPositionsCases,
  ...kernelsPositionsCases,
  ...errorsPositionsCases,
  ...backendsMorePositionsCases,
  ...encodersPositionsCases,
  ...blocksPositionsCases,
  ...hubMorePositionsCases,
  ...decodersPositionsCases,
  ...tokenizersMorePositionsCases,
  ...trainMorePositionsCases,
];

/** The areas the catalogue must cover (a missing or misspelled area fails the run). */
export const AREAS: readonly string[] = [
  'masks',
  'nn',
  'scorers',
  'attention',
  'bert',
  'sentence',
  'decoders',
  'modernbert',
  'loaders',
  'tokenizer',
  'cli',
  'chat',
  'retrieval',
  'backends',
  'concurrency',
  'untrusted files',
  'host objects',
  'extremes',
  'combinations',
  'sizes and memory',
  'entry points',
  'argument positions',
];
