import { maxDifference, useBackend, type BackendCapabilities } from '@attnkit/backends';
import type { LoadProgress } from '@attnkit/hub';
import { l2Normalize, loadSentenceEncoder, similarity as similarityOf } from '@attnkit/sentence';
import { tensor2d, tidy } from '@tensorflow/tfjs-core';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { valueOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';
import { checkModelFolder } from './check-model-folder.js';
import { EMBEDDED_MODEL_NOTE } from './embedded-model.js';
import { formatSimilarityMatrix } from './format-similarity-matrix.js';
import { shortestFloat32Values } from './shortest-float32.js';

/** Sentences the demo encodes when none are given. */
export const EXAMPLE_SENTENCES = ['The cat sat on the mat.', 'A cat was sitting on a mat.', 'Stock markets fell sharply today.', 'Attention is all you need.'];

/** `attnkit` without a command: the demo. `attnkit --help` adds the list of commands. */
export const DEMO_COMMAND = defineCommand({
  name: '',
  purpose: 'the demo: tokens, the cosine-similarity matrix of the sentence embeddings, backend capabilities, load and forward times, cpu/wasm agreement',
  usage: 'attnkit [--backend cpu|wasm] [--model DIR|ID] [--text "..." ...] [--compare cpu,wasm] [--json]',
  summary: 'Without a command: encodes sentences with a BERT-family model and prints the tokens, the cosine-similarity matrix of the sentence embeddings (pooled as the model folder says), the backend and its capabilities, load / first / warm forward times and the agreement between backends.',
  options: {
    backend: { ...OPTIONS.backend, help: 'the tfjs backend (webgl and webgpu need a browser: npm run demo:web)' },
    model: OPTIONS.model,
    texts: { ...OPTIONS.text, help: 'a sentence to encode; repeat for more', default: 'four example sentences' },
    compare: valueOption({
      name: 'compare',
      placeholder: 'cpu,wasm',
      help: 'backends whose last_hidden_state is compared (max abs difference against the first)',
      default: 'cpu,wasm',
      parse: (value = 'cpu,wasm', refuse) => {
        const backends = value.split(',').map((b) => b.trim()).filter((b) => b !== '');
        return backends.every((b) => b === 'cpu' || b === 'wasm') ? (backends as ('cpu' | 'wasm')[]) : refuse('a comma-separated list of cpu, wasm', value);
      },
    }),
    json: OPTIONS.json('one object (model, capabilities, tokens, similarity, timingsMs, agreement, embeddings)', 'the report'),
  },
  examples: [
    'attnkit --backend cpu --text "Hello there" --text "General Kenobi" --compare cpu,wasm',
    'attnkit --model ./all-MiniLM-L6-v2 --json > report.json',
    'attnkit similarity --text "A cat sat." --text "A cat was sitting."',
  ],
  notes: ['Progress and diagnostics go to stderr, so stdout holds only the result (one JSON document with --json).', EXIT_CODES],
});

/** What the demo was asked to do. */
export interface DemoRequest {
  readonly backend: 'cpu' | 'wasm';
  readonly model: string;
  readonly texts: readonly string[];
  readonly compare: readonly ('cpu' | 'wasm')[];
  readonly json: boolean;
}

/** Everything the demo measured, printed as text or `--json` (float32 values as the shortest decimals that read back the same: `shortestFloat32`). */
export interface DemoReport {
  readonly model: string;
  readonly capabilities: BackendCapabilities;
  readonly tokens: string[][];
  readonly similarity: number[][];
  readonly timingsMs: { readonly load: number; readonly firstForward: number; readonly warmForwardMedian: number };
  /** Max abs difference of `last_hidden_state` of each compared backend against the first one. */
  readonly agreement: ReadonlyArray<{ readonly backend: string; readonly reference: string; readonly maxAbsDiff: number }>;
  readonly embeddings: number[][];
}

/**
 * Parses the demo's arguments. Defaults: wasm, the embedded model, example sentences, `--compare cpu,wasm`.
 * A relative `--model` is resolved against the directory the command was run from (`callerPath`).
 *
 * @example
 * parseDemoArgs(['--backend', 'cpu', '--text', 'hello']);
 */
export function parseDemoArgs(argv: readonly string[]): DemoRequest {
  const { values } = parseCommandLine(DEMO_COMMAND, argv);
  return { ...values, texts: values.texts.length > 0 ? values.texts : EXAMPLE_SENTENCES };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Loads the model on the requested backend, encodes the texts, measures load, first (cold) and
 * warm forward times, similarities of the sentence embeddings (pooled as the model folder says), and cross-backend agreement.
 *
 * @example
 * const report = await runDemo(parseDemoArgs([]), (p) => process.stderr.write(`${p.file} ${p.loaded}\r`));
 */
export async function runDemo(request: DemoRequest, onProgress?: (progress: LoadProgress) => void): Promise<DemoReport> {
  checkModelFolder(DEMO_COMMAND, '--model', request.model);
  const capabilities = await useBackend(request.backend);
  const started = performance.now();
  const model = await loadSentenceEncoder(request.model, onProgress === undefined ? {} : { onProgress });
  const load = performance.now() - started;
  try {
    const batch = model.tokenizer.encode(request.texts, { maxLength: model.maxSeqLength });
    // the encoder's output and the sentence embeddings the folder describes (pooling, Dense, Normalize), unit length
    const embed = (): { hidden: Float32Array; embeddings: number[][] } =>
      tidy(() => {
        const out = model.encoder.forward(batch);
        const sentences = model.sentenceEmbeddings(out.lastHiddenState, tensor2d(batch.attentionMask, undefined, 'int32'));
        const unit = l2Normalize(sentences);
        return { hidden: out.lastHiddenState.dataSync() as Float32Array, embeddings: unit.arraySync() as number[][] } as never;
      });
    const first = performance.now();
    const { hidden, embeddings } = embed();
    const firstForward = performance.now() - first;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      embed();
      warm.push(performance.now() - t);
    }
    const similarity = tidy(() => {
      const e = tensor2d(embeddings);
      return similarityOf(e, e, 'cosine').arraySync() as number[][];
    });
    const agreement: Array<{ backend: string; reference: string; maxAbsDiff: number }> = [];
    const [reference, ...others] = request.compare;
    if (reference !== undefined) {
      const hiddenOn = async (backend: 'cpu' | 'wasm'): Promise<Float32Array> => {
        if (backend === request.backend) return hidden;
        await useBackend(backend);
        try {
          return embed().hidden;
        } finally {
          await useBackend(request.backend);
        }
      };
      const base = await hiddenOn(reference);
      for (const backend of others) agreement.push({ backend, reference, maxAbsDiff: maxDifference(await hiddenOn(backend), base).maxAbsDiff });
    }
    return { model: request.model, capabilities, tokens: batch.tokens, similarity: shortestFloat32Values(similarity), timingsMs: { load, firstForward, warmForwardMedian: median(warm) }, agreement, embeddings: shortestFloat32Values(embeddings) };
  } finally {
    model.dispose();
  }
}

/** The demo report as a person reads it. */
export function formatDemoReport(report: DemoReport): string {
  const caps = report.capabilities;
  const wasm = caps.wasm === undefined ? '' : `, ${caps.wasm.binary}, ${caps.wasm.threadCount} thread${caps.wasm.threadCount === 1 ? '' : 's'}`;
  const lines = [
    `attnkit demo: ${report.model}`,
    `backend: ${caps.backend} (${caps.environment}, float${caps.floatPrecision}${wasm}); missing kernels: ${caps.missingKernels.join(', ') || 'none'}; filled: ${caps.filledKernels.join(', ') || 'none'}`,
    `load: ${report.timingsMs.load.toFixed(0)} ms   first forward: ${report.timingsMs.firstForward.toFixed(1)} ms   warm forward (median of 5): ${report.timingsMs.warmForwardMedian.toFixed(1)} ms`,
    '',
    'tokens:',
    ...report.tokens.map((t, i) => `  ${i + 1}. ${t.join(' ')}`),
    '',
    'cosine similarity of the sentence embeddings (pooled as the model folder says):',
    ...formatSimilarityMatrix(report.similarity),
    '',
    ...report.agreement.map((a) => `agreement ${a.backend} vs ${a.reference}: max abs diff of last_hidden_state ${a.maxAbsDiff.toExponential(2)}`),
  ];
  if (report.model.includes('attnkit-tiny-bert')) lines.push('', EMBEDDED_MODEL_NOTE);
  return lines.join('\n');
}

