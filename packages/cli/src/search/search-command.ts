import { existsSync, readFileSync } from 'node:fs';
import type { Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadCrossEncoder, loadSentenceEncoder, semanticSearch, SIMILARITY_FUNCTIONS, type SimilarityFunction } from '@attnkit/sentence';
import { checkModelFolder } from '../check-model-folder.js';
import { callerPath } from '../caller-path.js';
import { defineCommand } from '../command-line/cli-command.js';
import { valueOption, wholeNumberOption } from '../command-line/option-kinds.js';
import { modelSourceOf, OPTIONS } from '../command-line/option-table.js';
import { parseCommandLine } from '../command-line/parse-command-line.js';
import { refuseArgument } from '../command-line/refuse-argument.js';
import { idsPathOf } from '../embed/embed-output.js';
import { shortestFloat32 } from '../shortest-float32.js';
import { npyEmbeddings } from './npy-embeddings.js';
import { readIndexIds } from './read-index-ids.js';

/** What `attnkit search` was asked to do. */
export interface SearchRequest {
  /** The `.npy` index (its ids file is beside it). */
  readonly index: string;
  readonly queries: readonly string[];
  readonly model: string;
  /** A cross-encoder that rescores the embedding search's best `candidates` hits. */
  readonly rerank: string | undefined;
  readonly topK: number;
  /** Hits the cross-encoder rescores (default: the larger of `topK` and 50). */
  readonly candidates: number | undefined;
  /** Default: the model folder's `similarity_fn_name`. */
  readonly scoreFunction: SimilarityFunction | undefined;
  readonly promptName: string | undefined;
  readonly backend: 'cpu' | 'wasm';
  readonly json: boolean;
}

/** One hit as `attnkit search` prints it. */
export interface SearchResultHit {
  /** Its row in the index. */
  readonly row: number;
  /** Its id in the ids file. */
  readonly id: string | number;
  /** The cross-encoder's score with `--rerank`, else the embedding search's. */
  readonly score: number;
  /** The embedding search's score, when a cross-encoder rescored the hit. */
  readonly searchScore?: number;
  /** Its text, when the ids file keeps texts. */
  readonly text?: string;
}

/** What `attnkit search --json` prints. */
export interface SearchResult {
  readonly index: string;
  readonly rows: number;
  readonly dim: number;
  readonly model: string;
  readonly rerank?: string;
  readonly scoreFunction: SimilarityFunction;
  readonly queries: ReadonlyArray<{ readonly query: string; readonly hits: readonly SearchResultHit[] }>;
  /** Model loading, query embedding and search, reranking (ms). */
  readonly timingsMs: { readonly load: number; readonly search: number; readonly rerank?: number };
  /** Things worth knowing (a model other than the one the index was embedded with). */
  readonly notices: readonly string[];
}

/** `attnkit search`. */
export const SEARCH_COMMAND = defineCommand({
  name: 'search',
  purpose: 'the rows of an attnkit embed index most similar to each --query, optionally reranked by a cross-encoder (--json: { queries: [{ query, hits }] })',
  usage: 'attnkit search --index vectors.npy --query "..." [--query "..." ...] [--model DIR|ID] [--rerank DIR|ID] [--top-k N] [--json] [options]',
  summary: "Embeds each --query with the model (the one the index was embedded with) and finds the index's most similar rows as sentence_transformers.util.semantic_search does, reading the .npy file a chunk at a time, so an index larger than memory is searched in bounded memory. Prints each hit's rank, score, id (from vectors.ids.jsonl beside the index) and text (when the ids file keeps texts: attnkit embed --keep-text). --rerank rescores the best --candidates hits with a cross-encoder (a sentence-transformers CrossEncoder or a sequence-classification folder) and keeps the best --top-k of those. Load and search times go to stderr.",
  options: {
    index: valueOption({ name: 'index', placeholder: 'vectors.npy', help: 'a float32 .npy matrix written by attnkit embed (or np.save), with its ids file (vectors.ids.jsonl) beside it', parse: (value) => (value === undefined ? undefined : callerPath(value)) }),
    queries: { ...OPTIONS.text, name: 'query', help: 'a query; repeat for more (they are embedded and searched together)' },
    model: { ...OPTIONS.model, help: `${OPTIONS.model.help}; the model that embedded the index` },
    rerank: valueOption({ name: 'rerank', placeholder: 'DIR|ID', help: 'a cross-encoder folder, Hugging Face id or URL that rescores the hits (they need texts: attnkit embed --keep-text)', default: 'no reranking', parse: (value) => (value === undefined ? undefined : modelSourceOf(value)) }),
    topK: wholeNumberOption({ name: 'top-k', help: 'hits per query', min: 1, max: 100_000, fallback: 10 }),
    candidates: wholeNumberOption({ name: 'candidates', help: 'with --rerank: hits of the embedding search the cross-encoder rescores', default: 'the larger of --top-k and 50', min: 1, max: 100_000 }),
    scoreFunction: valueOption({
      name: 'score-function',
      placeholder: SIMILARITY_FUNCTIONS.join('|'),
      help: 'how the query and row embeddings are compared',
      default: "the model folder's similarity function (cosine for most)",
      parse: (value, refuse) => (value === undefined || (SIMILARITY_FUNCTIONS as readonly string[]).includes(value) ? (value as SimilarityFunction | undefined) : refuse(SIMILARITY_FUNCTIONS.join(', '), JSON.stringify(value))),
    }),
    promptName: { ...OPTIONS.promptName, help: "one of the folder's prompts, for the queries" },
    backend: OPTIONS.backend,
    json: OPTIONS.json('{ index, rows, dim, model, queries: [{ query, hits: [{ row, id, score, text? }] }], timingsMs }', 'each query and its hits, one per line'),
  },
  examples: [
    'attnkit search --index vectors.npy --query "how do cats sleep?"',
    'attnkit search --index vectors.npy --model ./all-MiniLM-L6-v2 --query "query: weather" --query "query: stocks" --top-k 5 --json',
    'attnkit search --index vectors.npy --model ./all-MiniLM-L6-v2 --rerank ./ms-marco-MiniLM-L6-v2 --candidates 100 --top-k 10 --query "how many people live in Berlin?"',
  ],
  notes: [
    'Exit codes: 0 done; 2 a usage or input error (bad option, no --query, an index that is not a float32 .npy matrix, truncated, of another width than the model, or still being written, a missing ids file, --rerank without texts in the ids file: the message says what to fix); 1 a bug (please report it).',
  ],
});

/**
 * Parses `attnkit search` arguments. Defaults: the embedded model, the wasm backend, 10 hits.
 * Relative paths are taken from the directory the command runs in.
 *
 * @example
 * parseSearchArgs(['--index', 'vectors.npy', '--query', 'how do cats sleep?', '--top-k', '5']);
 */
export function parseSearchArgs(argv: readonly string[]): SearchRequest {
  const { values, refuse } = parseCommandLine(SEARCH_COMMAND, argv);
  if (values.index === undefined) return refuse('--index', 'the .npy index to search (attnkit embed ... --output vectors.npy)', 'none');
  if (!/\.npy$/i.test(values.index)) refuse('--index', 'a .npy file (attnkit embed writes OUT.npy with OUT.ids.jsonl beside it)', JSON.stringify(values.index));
  if (values.queries.length === 0) refuse('--query', 'one or more queries (--query "...")', 'none');
  if (values.candidates !== undefined && values.rerank === undefined) refuse('--candidates', 'given with --rerank (the hits the cross-encoder rescores)', `--candidates ${values.candidates} without --rerank`);
  return { ...values, index: values.index };
}

/**
 * Searches the index as the request says: the index and its ids file checked first, the model
 * loaded (its width checked against the index's), the queries embedded as the folder says, the
 * index read a chunk at a time (`npyEmbeddings`, `semanticSearch`), the hits' ids and texts read
 * from the ids file, then the cross-encoder's rescoring with `--rerank`. Leaves no tensor behind.
 *
 * @example
 * const result = await runSearch(parseSearchArgs(['--index', 'vectors.npy', '--query', 'cats']));
 * result.queries[0].hits[0]; // { row: 17, id: 'doc-17', score: 0.83, text: '...' }
 */
export async function runSearch(request: SearchRequest): Promise<SearchResult> {
  const refuse = (argument: string, expected: string, received: string): never => refuseArgument(SEARCH_COMMAND, argument, expected, received);
  const index = npyEmbeddings(request.index, { caller: 'attnkit search', argument: '--index' });
  try {
    const idsPath = idsPathOf(request.index);
    if (!existsSync(idsPath)) refuse('--index', `an index with its ids file beside it (${idsPath})`, 'no ids file');
    checkModelFolder(SEARCH_COMMAND, '--model', request.model);
    if (request.rerank !== undefined) checkModelFolder(SEARCH_COMMAND, '--rerank', request.rerank);
    const notices: string[] = [];
    const embeddedWith = sidecarModel(request.index);
    if (embeddedWith !== undefined && embeddedWith !== request.model) notices.push(`attnkit search: the index was embedded with ${embeddedWith} (its sidecar says so); the queries are embedded with ${request.model}. Scores mean something only if the two are one model.`);
    await useBackend(request.backend);
    const started = performance.now();
    const model = await loadSentenceEncoder(request.model);
    const loaded = performance.now();
    let queries: Tensor | undefined;
    try {
      if (model.embeddingDimension !== index.dim) refuse('--index', `rows as wide as the model's embeddings (${model.embeddingDimension}): an index embedded with ${request.model}`, `rows of width ${index.dim} in ${request.index}`);
      const scoreFunction = request.scoreFunction ?? model.similarityFnName;
      queries = await model.encode(request.queries, request.promptName === undefined ? {} : { promptName: request.promptName });
      const candidates = request.rerank === undefined ? request.topK : (request.candidates ?? Math.max(request.topK, 50));
      const found = await semanticSearch(queries, index, { topK: candidates, scoreFunction });
      const entries = await readIndexIds(idsPath, new Set(found.flat().map((hit) => hit.corpusId)), { caller: 'attnkit search', argument: '--index' });
      const searched = performance.now();
      const hits = found.map((list) => list.map((hit): SearchResultHit => {
        const entry = entries.get(hit.corpusId)!;
        return { row: hit.corpusId, id: entry.id, score: shortestFloat32(hit.score), ...(entry.text === undefined ? {} : { text: entry.text }) };
      }));
      const reranked = request.rerank === undefined ? hits : await rerank(request.rerank, request.queries, hits, request.topK, refuse);
      const done = performance.now();
      return {
        index: request.index,
        rows: index.rows,
        dim: index.dim,
        model: request.model,
        ...(request.rerank === undefined ? {} : { rerank: request.rerank }),
        scoreFunction,
        queries: request.queries.map((query, i) => ({ query, hits: reranked[i]! })),
        timingsMs: { load: Math.round(loaded - started), search: Math.round(searched - loaded), ...(request.rerank === undefined ? {} : { rerank: Math.round(done - searched) }) },
        notices,
      };
    } finally {
      queries?.dispose();
      model.dispose();
    }
  } finally {
    index.close();
  }
}

/** Each query's hits rescored by the cross-encoder, best `topK` first; the embedding score kept as `searchScore`. */
async function rerank(source: string, queries: readonly string[], hits: SearchResultHit[][], topK: number, refuse: (argument: string, expected: string, received: string) => never): Promise<SearchResultHit[][]> {
  const missing = hits.flat().find((hit) => hit.text === undefined);
  if (missing !== undefined) refuse('--rerank', 'an index whose ids file keeps the texts ({"id", "text"} per line: attnkit embed --keep-text), for the cross-encoder to read', `an ids file without texts (row ${missing.row}, id ${JSON.stringify(missing.id)})`);
  const model = await loadCrossEncoder(source);
  try {
    if (model.numLabels !== 1) refuse('--rerank', 'a cross-encoder with one output (a relevance score)', `${source}, which has ${model.numLabels} labels`);
    const out: SearchResultHit[][] = [];
    for (const [i, list] of hits.entries()) {
      const ranked = await model.rank(queries[i]!, list.map((hit) => hit.text!), { topK });
      out.push(ranked.map(({ corpusId, score }) => ({ ...list[corpusId]!, score: shortestFloat32(score), searchScore: list[corpusId]!.score })));
    }
    return out;
  } finally {
    model.dispose();
  }
}

/** The model an `attnkit embed` sidecar (`vectors.npy.embed.json`) names, if there is one. */
function sidecarModel(index: string): string | undefined {
  try {
    const model = (JSON.parse(readFileSync(`${index}.embed.json`, 'utf8')) as { settings?: { model?: unknown } }).settings?.model;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}

/** Each query and its hits, as a person reads them: rank, score (and the search's, when reranked), id and text. */
export function formatSearch(result: SearchResult): string {
  const lines: string[] = [];
  for (const [q, { query, hits }] of result.queries.entries()) {
    if (q > 0) lines.push('');
    lines.push(`query ${q + 1}: ${query}`);
    if (hits.length === 0) lines.push('  (the index has no rows)');
    for (const [rank, hit] of hits.entries()) {
      const score = hit.score.toFixed(4);
      const searched = hit.searchScore === undefined ? '' : ` (search ${hit.searchScore.toFixed(4)})`;
      const text = hit.text === undefined ? '' : `  ${hit.text.length > 100 ? `${hit.text.slice(0, 99)}…` : hit.text}`;
      lines.push(`  ${`${rank + 1}`.padStart(3)}. ${score}${searched}  ${typeof hit.id === 'string' ? hit.id : String(hit.id)}${text}`);
    }
  }
  return lines.join('\n');
}
