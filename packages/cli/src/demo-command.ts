import { parseArgs } from 'node:util';

import { maxDifference, useBackend, type BackendCapabilities } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import type { LoadProgress } from '@attnkit/hub';
import { l2Normalize, loadSentenceEncoder, similarity as similarityOf } from '@attnkit/sentence';
import { tensor2d, tidy } from '@tensorflow/tfjs-core';
import { callerPath } from './caller-path.js';
import { EXIT_CODES, type CommandHelp } from './command-help.js';
import { EMBEDDED_MODEL_NOTE, embeddedModelFolder } from './embedded-model.js';
import { formatSimilarityMatrix } from './format-similarity-matrix.js';

/** Sentences the demo encodes when none are given. */
export const EXAMPLE_SENTENCES = ['The cat sat on the mat.', 'A cat was sitting on a mat.', 'Stock markets fell sharply today.', 'Attention is all you need.'];
export const DEMO_USAGE = 'attnkit [--backend cpu|wasm] [--model DIR] [--text "..." ...] [--compare cpu,wasm] [--json]';

/** `attnkit --help`: the demo (the command without a name) and the list of commands. */
export const DEMO_HELP: CommandHelp = {
  usage: `${DEMO_USAGE}\n       attnkit <encode|similarity|embed|join|train|quantize|bench|report> [options]   (attnkit <command> --help for each)`,
  summary: 'Without a command: encodes sentences with a BERT-family model and prints the tokens, the cosine-similarity matrix of the sentence embeddings (pooled as the model folder says), the backend and its capabilities, load / first / warm forward times and the agreement between backends.',
  options: [
    { flag: '--backend cpu|wasm', description: 'the tfjs backend (webgl and webgpu need a browser: npm run demo:web)', default: 'wasm' },
    { flag: '--model DIR', description: 'a Hugging Face or sentence-transformers folder (relative to where you run the command) or an http(s) URL', default: 'the embedded attnkit-tiny-bert (small, trained on WordNet)' },
    { flag: '--text "..."', description: 'a sentence to encode; repeat for more', default: 'four example sentences' },
    { flag: '--compare cpu,wasm', description: 'backends whose last_hidden_state is compared (max abs difference against the first)', default: 'cpu,wasm' },
    { flag: '--json', description: 'print one JSON object (model, capabilities, tokens, similarity, timingsMs, agreement, embeddings) on stdout instead of the report', default: 'off' },
    { flag: '-h, --help', description: 'print this help' },
  ],
  examples: [
    'attnkit --backend cpu --text "Hello there" --text "General Kenobi" --compare cpu,wasm',
    'attnkit --model ./all-MiniLM-L6-v2 --json > report.json',
    'attnkit similarity --text "A cat sat." --text "A cat was sitting."',
  ],
  notes: [
    [
      'Commands:',
      '  (none)       the demo above',
      '  encode       hidden states and sentence embeddings as JSON (attnkit encode --help)',
      '  similarity   the cosine-similarity matrix of sentences (attnkit similarity --help)',
      '  embed        a corpus file of any size to .npy or JSONL: worker threads, resume, shards (attnkit embed --help)',
      '  join         the shard outputs of attnkit embed --shard into one (attnkit join --help)',
      '  train        fine-tune a model on pairs of texts, resumable (attnkit train --help)',
      '  quantize     write the int8 folder of a model: Linear weights a quarter of their size (attnkit quantize --help)',
      '  bench        a quick speed check: load, first and warm encode times, texts/s (attnkit bench --help)',
      '  report       backends, capabilities and the kernel conformance table (attnkit report --help)',
    ].join('\n'),
    'Progress and diagnostics go to stderr, so stdout holds only the result (one JSON document with --json).',
    EXIT_CODES,
  ],
};

/** What the demo was asked to do. */
export interface DemoRequest {
  readonly backend: 'cpu' | 'wasm';
  readonly model: string;
  readonly texts: readonly string[];
  readonly compare: readonly ('cpu' | 'wasm')[];
  readonly json: boolean;
}

/** Everything the demo measured, printed as text or `--json`. */
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

function fail(argument: string, expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit', argument, expected, received, hint: `Usage: ${DEMO_USAGE} (attnkit --help lists every option and command)` });
}

/**
 * Parses the demo's arguments. Defaults: wasm, the embedded model, example sentences, `--compare cpu,wasm`.
 * A relative `--model` is resolved against the directory the command was run from ({@link callerPath}).
 *
 * @example
 * parseDemoArgs(['--backend', 'cpu', '--text', 'hello']);
 */
export function parseDemoArgs(argv: readonly string[]): DemoRequest {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: { backend: { type: 'string' }, model: { type: 'string' }, text: { type: 'string', multiple: true }, compare: { type: 'string' }, json: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    fail('arguments', 'the options of the demo', (error as Error).message);
  }
  const backend = values.backend ?? 'wasm';
  if (backend !== 'cpu' && backend !== 'wasm') fail('--backend', 'cpu or wasm (webgl and webgpu need a browser: use the web page)', backend);
  const texts = values.text ?? EXAMPLE_SENTENCES;
  if (texts.length === 0 || texts.some((t) => t.trim() === '')) fail('--text', 'non-empty text', '""');
  const compare = (values.compare ?? 'cpu,wasm').split(',').map((b) => b.trim()).filter((b) => b !== '');
  for (const b of compare) if (b !== 'cpu' && b !== 'wasm') fail('--compare', 'a comma-separated list of cpu, wasm', values.compare ?? '');
  return { backend, model: values.model === undefined ? embeddedModelFolder() : callerPath(values.model), texts, compare: compare as ('cpu' | 'wasm')[], json: values.json === true };
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
    return { model: request.model, capabilities, tokens: batch.tokens, similarity, timingsMs: { load, firstForward, warmForwardMedian: median(warm) }, agreement, embeddings };
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

