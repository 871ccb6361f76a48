import { parseArgs } from 'node:util';
import type { Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder, similarity } from '@attnkit/sentence';
import { callerPath } from './caller-path.js';
import { EXIT_CODES, type CommandHelp } from './command-help.js';
import { EMBEDDED_MODEL_NOTE, embeddedModelFolder } from './embedded-model.js';
import { formatSimilarityMatrix } from './format-similarity-matrix.js';

/** What `attnkit similarity` was asked to do. */
export interface SimilarityRequest {
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  readonly texts: readonly string[];
  readonly json: boolean;
}

/** What `attnkit similarity --json` prints: the texts and their cosine similarities `[N, N]`. */
export interface SimilarityResult {
  readonly texts: readonly string[];
  readonly similarity: number[][];
}

export const SIMILARITY_USAGE = 'attnkit similarity --text "..." --text "..." [--text "..." ...] [--model DIR] [--backend cpu|wasm] [--json]';

/** `attnkit similarity --help`. */
export const SIMILARITY_HELP: CommandHelp = {
  usage: SIMILARITY_USAGE,
  summary: "Embeds the texts as the model folder says (the sentence_embedding of attnkit encode: pooling, Dense, the folder's default prompt) and prints the cosine similarity of every pair as a table, or with --json one object { texts, similarity: number[][] }. Load and encode times go to stderr.",
  options: [
    { flag: '--text "..."', description: 'a text; two or more' },
    { flag: '--model DIR', description: 'a Hugging Face or sentence-transformers folder (relative to where you run the command) or an http(s) URL', default: 'the embedded attnkit-tiny-bert (small, trained on WordNet)' },
    { flag: '--backend cpu|wasm', description: 'the tfjs backend', default: 'wasm' },
    { flag: '--json', description: 'print { texts, similarity } as one JSON document instead of the table', default: 'off' },
    { flag: '-h, --help', description: 'print this help' },
  ],
  examples: [
    'attnkit similarity --text "The cat sat on the mat." --text "A cat was sitting on a mat." --text "Stocks fell."',
    'attnkit similarity --model ./all-MiniLM-L6-v2 --backend cpu --text "query: weather" --text "It is sunny." --json',
  ],
  notes: [EXIT_CODES],
};

function usage(argument: string, expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit similarity', argument, expected, received, hint: `Usage: ${SIMILARITY_USAGE} (attnkit similarity --help lists every option)` });
}

/**
 * Parses `attnkit similarity` arguments. Defaults: the embedded model, the wasm backend. A relative
 * `--model` is resolved against the directory the command was run from ({@link callerPath}).
 *
 * @example
 * parseSimilarityArgs(['--text', 'a cat', '--text', 'a dog', '--json']);
 */
export function parseSimilarityArgs(argv: readonly string[]): SimilarityRequest {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: { model: { type: 'string' }, backend: { type: 'string' }, text: { type: 'string', multiple: true }, json: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    usage('arguments', 'the options of attnkit similarity', (error as Error).message);
  }
  const backend = values.backend ?? 'wasm';
  if (backend !== 'cpu' && backend !== 'wasm') usage('--backend', 'cpu or wasm (webgl needs a browser: use the web page)', backend);
  const texts = values.text ?? [];
  if (texts.length < 2) usage('--text', 'two or more texts (--text "..." --text "...")', texts.length === 0 ? 'none' : 'one');
  if (texts.some((t) => t.trim() === '')) usage('--text', 'non-empty text', '""');
  return { model: values.model === undefined ? embeddedModelFolder() : callerPath(values.model), backend, texts, json: values.json === true };
}

/**
 * Loads the model, embeds the texts as its folder says and returns their cosine similarities
 * `[N, N]`, with load and encode times (ms) for stderr. Leaves no tensors behind.
 *
 * @example
 * const { result } = await runSimilarity(parseSimilarityArgs(['--text', 'a cat', '--text', 'a dog']));
 */
export async function runSimilarity(request: SimilarityRequest): Promise<{ result: SimilarityResult; timingsMs: { load: number; encode: number } }> {
  await useBackend(request.backend);
  const started = performance.now();
  const model = await loadSentenceEncoder(request.model);
  const loaded = performance.now();
  let embeddings: Tensor | undefined;
  let matrix: Tensor | undefined;
  try {
    embeddings = await model.encode(request.texts); // [N, E]
    matrix = similarity(embeddings, embeddings, 'cosine'); // [N, N]
    const result = { texts: request.texts, similarity: (await matrix.array()) as number[][] };
    return { result, timingsMs: { load: Math.round(loaded - started), encode: Math.round(performance.now() - loaded) } };
  } finally {
    matrix?.dispose();
    embeddings?.dispose();
    model.dispose();
  }
}

/** The texts, numbered, and their similarity table, as a person reads them (with a note under results of the small embedded model). */
export function formatSimilarity(result: SimilarityResult, model: string): string {
  const lines = [...result.texts.map((t, i) => `  ${`${i + 1}`.padStart(2)}. ${t}`), '', 'cosine similarity of the sentence embeddings (pooled as the model folder says):', ...formatSimilarityMatrix(result.similarity)];
  if (model.includes('attnkit-tiny-bert')) lines.push('', EMBEDDED_MODEL_NOTE);
  return lines.join('\n');
}
