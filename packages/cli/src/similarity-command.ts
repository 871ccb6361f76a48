import type { Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder, similarity } from '@attnkit/sentence';
import { checkModelFolder } from './check-model-folder.js';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';
import { EMBEDDED_MODEL_NOTE } from './embedded-model.js';
import { formatSimilarityMatrix } from './format-similarity-matrix.js';
import { shortestFloat32Values } from './shortest-float32.js';

/** What `attnkit similarity` was asked to do. */
export interface SimilarityRequest {
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  readonly texts: readonly string[];
  readonly json: boolean;
}

/** What `attnkit similarity --json` prints: the texts and their cosine similarities `[N, N]`, float32 values as the shortest decimals that read back the same (`1.0000001`, not `1.0000001192092896`). */
export interface SimilarityResult {
  readonly texts: readonly string[];
  readonly similarity: number[][];
}

/** `attnkit similarity`. */
export const SIMILARITY_COMMAND = defineCommand({
  name: 'similarity',
  purpose: 'the cosine-similarity matrix of two or more --text (--json: { texts, similarity })',
  usage: 'attnkit similarity --text "..." --text "..." [--text "..." ...] [--model DIR|ID] [--backend cpu|wasm] [--json]',
  summary: "Embeds the texts as the model folder says (the sentence_embedding of attnkit encode: pooling, Dense, the folder's default prompt) and prints the cosine similarity of every pair as a table, or with --json one object { texts, similarity: number[][] }. Load and encode times go to stderr.",
  options: {
    texts: { ...OPTIONS.text, help: 'a text; two or more' },
    model: OPTIONS.model,
    backend: OPTIONS.backend,
    json: OPTIONS.json('{ texts, similarity }', 'the table'),
  },
  examples: [
    'attnkit similarity --text "The cat sat on the mat." --text "A cat was sitting on a mat." --text "Stocks fell."',
    'attnkit similarity --model ./all-MiniLM-L6-v2 --backend cpu --text "query: weather" --text "It is sunny." --json',
  ],
  notes: [EXIT_CODES],
});

/**
 * Parses `attnkit similarity` arguments. Defaults: the embedded model, the wasm backend. A relative
 * `--model` is resolved against the directory the command was run from (`callerPath`).
 *
 * @example
 * parseSimilarityArgs(['--text', 'a cat', '--text', 'a dog', '--json']);
 */
export function parseSimilarityArgs(argv: readonly string[]): SimilarityRequest {
  const { values, refuse } = parseCommandLine(SIMILARITY_COMMAND, argv);
  if (values.texts.length < 2) refuse('--text', 'two or more texts (--text "..." --text "...")', values.texts.length === 0 ? 'none' : 'one');
  return values;
}

/**
 * Loads the model, embeds the texts as its folder says and returns their cosine similarities
 * `[N, N]`, with load and encode times (ms) for stderr. Leaves no tensors behind.
 *
 * @example
 * const { result } = await runSimilarity(parseSimilarityArgs(['--text', 'a cat', '--text', 'a dog']));
 */
export async function runSimilarity(request: SimilarityRequest): Promise<{ result: SimilarityResult; timingsMs: { load: number; encode: number } }> {
  checkModelFolder(SIMILARITY_COMMAND, '--model', request.model);
  await useBackend(request.backend);
  const started = performance.now();
  const model = await loadSentenceEncoder(request.model);
  const loaded = performance.now();
  let embeddings: Tensor | undefined;
  let matrix: Tensor | undefined;
  try {
    embeddings = await model.encode(request.texts); // [N, E]
    matrix = similarity(embeddings, embeddings, 'cosine'); // [N, N]
    const result = { texts: request.texts, similarity: shortestFloat32Values((await matrix.array()) as number[][]) };
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
