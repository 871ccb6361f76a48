import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { checkModelFolder } from './check-model-folder.js';
import { defineCommand } from './command-line/cli-command.js';
import { valueOption, wholeNumberOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';

/** What `attnkit bench` was asked to measure. */
export interface BenchRequest {
  readonly model: string;
  readonly backends: readonly ('cpu' | 'wasm')[];
  /** Texts per encode call. */
  readonly batch: number;
  /** Tokens per text (special tokens included), at most the model's maximum sequence length. */
  readonly tokens: number;
  /** Warm runs after the first. */
  readonly runs: number;
  readonly json: boolean;
}

/** One backend's timings (ms). */
export interface BenchResult {
  readonly backend: 'cpu' | 'wasm';
  readonly threads: number | undefined;
  /** Tokens per text as the tokenizer counted them. */
  readonly tokens: number;
  readonly loadMs: number;
  /** The first encode (kernel set-up included). */
  readonly firstMs: number;
  readonly warmMedianMs: number;
  readonly warmMinMs: number;
  readonly warmMaxMs: number;
  /** `batch / warm median`. */
  readonly textsPerSecond: number;
}

/** `attnkit bench`. */
export const BENCH_COMMAND = defineCommand({
  name: 'bench',
  purpose: 'a quick speed check: load, first and warm encode times and texts/s on this machine',
  usage: 'attnkit bench [--model DIR|ID] [--backend cpu,wasm] [--batch N] [--tokens N] [--runs N] [--json]',
  summary: 'A quick speed check on this machine: per backend, the model load time, the first encode of a batch (kernel set-up included), then the median, fastest and slowest of --runs warm encodes (tokenize, forward, pooling, as attnkit embed runs them) and texts/s. For comparisons against other engines, use the repository benchmark (pnpm bench).',
  options: {
    model: OPTIONS.model,
    backends: valueOption({
      name: 'backend',
      placeholder: 'cpu,wasm',
      help: 'comma-separated backends to measure: cpu, wasm',
      default: 'wasm',
      parse: (value = 'wasm', refuse) => {
        const backends = value.split(',').map((b) => b.trim());
        return backends.every((b) => b === 'cpu' || b === 'wasm') && new Set(backends).size === backends.length ? (backends as ('cpu' | 'wasm')[]) : refuse('cpu, wasm or cpu,wasm (each once)', JSON.stringify(value));
      },
    }),
    batch: wholeNumberOption({ name: 'batch', help: 'texts per encode', min: 1, max: 4096, fallback: 8 }),
    tokens: wholeNumberOption({ name: 'tokens', help: "tokens per text (special tokens included; at most the model's maximum)", default: "128, or the model's maximum if lower", min: 1, max: 8192, fallback: 128 }),
    runs: wholeNumberOption({ name: 'runs', help: 'warm runs', min: 1, max: 1000, fallback: 5 }),
    json: OPTIONS.json('the results', 'a table'),
  },
  examples: ['attnkit bench', 'attnkit bench --model ./all-MiniLM-L6-v2 --backend cpu,wasm --batch 32 --tokens 64', 'attnkit bench --runs 10 --json > bench.json'],
  notes: ['Exit codes: 0 done; 2 a usage error or a missing model folder; 1 a bug (please report it).'],
});

/**
 * Parses `attnkit bench` arguments.
 *
 * @example
 * parseBenchArgs(['--backend', 'cpu,wasm', '--batch', '16']);
 */
export function parseBenchArgs(argv: readonly string[]): BenchRequest {
  return parseCommandLine(BENCH_COMMAND, argv).values;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Measures each requested backend in turn. Leaves no tensors behind.
 *
 * @example
 * const results = await runBench(parseBenchArgs(['--backend', 'cpu', '--runs', '3']));
 */
export async function runBench(request: BenchRequest): Promise<BenchResult[]> {
  checkModelFolder(BENCH_COMMAND, '--model', request.model);
  const results: BenchResult[] = [];
  for (const backend of request.backends) {
    const capabilities = await useBackend(backend);
    const started = performance.now();
    const model = await loadSentenceEncoder(request.model);
    const loadMs = performance.now() - started;
    try {
      const target = Math.min(request.tokens, model.maxSeqLength);
      // a text of `target` tokens: words the tokenizer keeps whole, as many as fit beside the special tokens
      const special = model.tokenizer.encode([''], { maxLength: model.maxSeqLength }).inputIds[0]!.length;
      const text = Array.from({ length: Math.max(1, target - special) }, (_, i) => ['the', 'cat', 'sat', 'on', 'a', 'mat'][i % 6]).join(' ');
      const tokens = model.tokenizer.encode([text], { maxLength: model.maxSeqLength, truncation: true }).inputIds[0]!.length;
      const texts = Array.from({ length: request.batch }, () => text);
      const encode = async () => {
        const t = performance.now();
        const embeddings = await model.encode(texts, { batchSize: request.batch });
        await embeddings.data();
        embeddings.dispose();
        return performance.now() - t;
      };
      const firstMs = await encode();
      const warm: number[] = [];
      for (let i = 0; i < request.runs; i++) warm.push(await encode());
      const sorted = [...warm].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      results.push({ backend, threads: capabilities.wasm?.threadCount, tokens, loadMs: round(loadMs), firstMs: round(firstMs), warmMedianMs: round(median), warmMinMs: round(sorted[0]!), warmMaxMs: round(sorted.at(-1)!), textsPerSecond: round((request.batch * 1000) / median) });
    } finally {
      model.dispose();
    }
  }
  return results;
}

/** The results as a table. */
export function formatBench(results: readonly BenchResult[], request: BenchRequest): string {
  const header = ['backend', 'threads', 'tokens/text', 'load ms', 'first ms', 'warm median ms', 'min..max ms', 'texts/s'];
  const rows = results.map((r) => [r.backend, String(r.threads ?? 1), String(r.tokens), String(r.loadMs), String(r.firstMs), String(r.warmMedianMs), `${r.warmMinMs}..${r.warmMaxMs}`, String(r.textsPerSecond)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [`batch of ${request.batch} texts, ${request.runs} warm runs, model ${request.model}`, line(header), ...rows.map(line)].join('\n');
}
