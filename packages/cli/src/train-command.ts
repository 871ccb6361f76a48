import { existsSync, readFileSync, statSync } from 'node:fs';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadBertForMaskedLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { saveMaskedLMFolder, saveSentenceFolder, trainMaskedLanguageModel, trainSentenceEncoder, type RankingPair, type ScoredPair, type TrainingHistory, type TrainingProgress } from '@attnkit/train';
import { checkModelFolder } from './check-model-folder.js';
import { shortestFloat32 } from './shortest-float32.js';
import { defineCommand } from './command-line/cli-command.js';
import { pathOption, realNumber, valueOption, wholeNumberOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';
import { refuseArgument } from './command-line/refuse-argument.js';

/** What `attnkit train` was asked to do. */
export interface TrainRequest {
  readonly model: string;
  /** Pairs of texts (fine-tuning a sentence encoder); or `texts`. */
  readonly pairs: string | undefined;
  /** Plain texts (masked-language-model pre-training of a BERT encoder); or `pairs`. */
  readonly texts: string | undefined;
  readonly output: string;
  readonly backend: 'cpu' | 'wasm';
  readonly batchSize: number;
  readonly epochs: number | undefined;
  readonly maxSteps: number | undefined;
  /** Default: 2e-5 with pairs, 5e-5 with texts. */
  readonly learningRate: number | undefined;
  /** Default: 0.1 with pairs, 0 with texts. */
  readonly warmupRatio: number | undefined;
  readonly seed: number;
  readonly checkpointEvery: number;
  readonly overwrite: boolean;
  readonly json: boolean;
}

/** What a run did (`--json` prints it). */
export interface TrainSummary {
  readonly output: string;
  readonly loss: 'multiple-negatives-ranking' | 'cosine-similarity' | 'masked-language-model';
  /** Training examples: pairs, or texts for the masked-LM objective. */
  readonly examples: number;
  readonly steps: number;
  /** Steps an earlier, interrupted run had done (continued from its checkpoint). */
  readonly resumedSteps: number;
  readonly firstLoss: number;
  readonly lastLoss: number;
  readonly seconds: number;
  readonly stepsPerSecond: number;
  readonly status: 'complete' | 'interrupted';
}

/** `--learning-rate X`, `--warmup-ratio X`: a finite number that `check` accepts (`expected` says which). */
/** `attnkit train`. */
export const TRAIN_COMMAND = defineCommand({
  name: 'train',
  purpose: 'fine-tunes a model on pairs of texts (JSONL or TSV) into a sentence-transformers folder, or pre-trains a BERT encoder on plain texts (masked LM); resumable',
  usage: 'attnkit train --model DIR|ID (--pairs FILE | --texts FILE) --output DIR [--epochs N | --max-steps N] [--batch-size N] [--learning-rate X] [options]',
  summary: 'Fine-tunes a sentence-embedding model on pairs of texts and writes a sentence-transformers folder that attnkit and sentence-transformers both load. Pairs of texts that mean the same (anchor, positive[, hard negative]) train with MultipleNegativesRankingLoss (in-batch negatives); pairs with a similarity label train with CosineSimilarityLoss. With --texts instead, a BERT encoder is pre-trained on plain texts with the masked-language-model objective (15 % of the tokens predicted) and written as a Hugging Face BertForMaskedLM folder, which the sentence commands also load (mean pooling). AdamW with linear warm-up and decay, gradients clipped to norm 1, seeded. Checkpoints go to OUTPUT.checkpoints/ as it trains: an interrupted run (Ctrl-C, a killed process) continues from the last one when run again with the same arguments.',
  options: {
    model: pathOption({ name: 'model', placeholder: 'DIR', help: 'the model to start from: a sentence-transformers or Hugging Face folder' }),
    pairs: pathOption({ name: 'pairs', placeholder: 'FILE', help: 'JSONL ({"anchor", "positive"[, "negative"]} or {"a", "b", "label"} per line) or TSV (anchor<TAB>positive[<TAB>negative], or a<TAB>b<TAB>number)' }),
    texts: pathOption({ name: 'texts', placeholder: 'FILE', help: 'instead of --pairs: plain texts for masked-language-model pre-training, one per line (or JSONL {"text": ...})' }),
    output: pathOption({ name: 'output', placeholder: 'DIR', help: 'the fine-tuned folder (written when training ends)' }),
    backend: OPTIONS.backend,
    epochs: wholeNumberOption({ name: 'epochs', help: 'passes over the pairs', default: '1', min: 1, max: 10_000 }),
    maxSteps: wholeNumberOption({ name: 'max-steps', help: 'optimiser steps in all, instead of --epochs', min: 1, max: 10_000_000 }),
    batchSize: wholeNumberOption({ name: 'batch-size', help: 'pairs per step (the ranking loss uses the other pairs of a batch as negatives: larger is better)', min: 1, max: 4096, fallback: 16 }),
    learningRate: valueOption({ name: 'learning-rate', placeholder: 'X', help: 'peak learning rate', default: '2e-5 (pairs), 5e-5 (texts)', parse: realNumber((n) => n > 0 && n <= 1, 'a number in (0, 1]') }),
    warmupRatio: valueOption({ name: 'warmup-ratio', placeholder: 'X', help: 'share of the steps spent warming up', default: '0.1 (pairs), 0 (texts)', parse: realNumber((n) => n >= 0 && n < 1, 'a number in [0, 1)') }),
    seed: wholeNumberOption({ name: 'seed', help: 'seeds the data order and dropout', min: 0, max: 2 ** 31 - 1, fallback: 42 }),
    checkpointEvery: wholeNumberOption({ name: 'checkpoint-every', help: 'steps between checkpoints', min: 1, max: 10_000_000, fallback: 100 }),
    overwrite: { ...OPTIONS.overwrite, help: 'replace an existing --output (and start again instead of resuming)' },
    json: OPTIONS.json('a summary', 'a one-line summary on stderr'),
  },
  examples: [
    'attnkit train --model ./all-MiniLM-L6-v2 --pairs pairs.jsonl --output ./my-model',
    'attnkit train --model ./my-model --pairs faq.tsv --output ./my-model-faq --epochs 3 --batch-size 32 --learning-rate 5e-5',
    'attnkit train --model ./my-bert --texts corpus.txt --output ./my-bert-domain --max-steps 2000 --batch-size 32',
  ],
  notes: ['Exit codes: 0 done; 2 a usage or input error (bad option, a malformed pairs line: the message names the line, a missing model folder, an existing --output); 130 interrupted (run the same command again to continue); 1 a bug (please report it).'],
});

/** A usage error of `attnkit train` found while reading its files. */
const refuse = (argument: string, expected: string, received: string): never => refuseArgument(TRAIN_COMMAND, argument, expected, received);

/**
 * Parses `attnkit train` arguments. Relative paths are taken from the directory the command runs in.
 *
 * @example
 * parseTrainArgs(['--model', './base', '--pairs', 'pairs.jsonl', '--output', './tuned']);
 */
export function parseTrainArgs(argv: readonly string[]): TrainRequest {
  const { values } = parseCommandLine(TRAIN_COMMAND, argv);
  const model = values.model ?? refuse('--model', 'a model folder to start from', 'none');
  const output = values.output ?? refuse('--output', 'a folder to write the fine-tuned model to', 'none');
  if ((values.pairs === undefined) === (values.texts === undefined)) refuse('--pairs / --texts', 'one of them: --pairs FILE (a JSONL or TSV file of pairs) or --texts FILE (plain texts, one per line)', values.pairs === undefined ? 'none' : 'both');
  if (values.epochs !== undefined && values.maxSteps !== undefined) refuse('--epochs / --max-steps', 'one of them', 'both');
  // the ranking loss needs another pair in the batch as a negative
  if (values.pairs !== undefined && values.batchSize < 2) refuse('--batch-size', 'a whole number from 2 to 4096', JSON.stringify(String(values.batchSize)));
  return { ...values, model, output };
}

/** The text of the file `--pairs` or `--texts` names: a folder, device, pipe or unreadable file is a usage error naming it. */
function readTrainingFile(path: string, argument: '--pairs' | '--texts'): string {
  try {
    if (!statSync(path).isFile()) refuse(argument, 'a regular file', `${path} (a folder, device or pipe)`);
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    return refuse(argument, 'a readable file', `${path} (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
}

/**
 * Reads a pairs file: JSONL objects `{ anchor, positive, negative? }` or `{ a, b, label }`, or TSV
 * lines of two or three columns (a numeric third column is a label). Blank lines are skipped; the
 * first line decides the kind and every line must be of it.
 *
 * @example
 * readPairs('pairs.tsv'); // { loss: 'multiple-negatives-ranking', pairs: [{ anchor, positive }, ...] }
 */
export function readPairs(path: string): { loss: 'multiple-negatives-ranking'; pairs: RankingPair[] } | { loss: 'cosine-similarity'; pairs: ScoredPair[] } {
  const text = readTrainingFile(path, '--pairs');
  const jsonl = /\.(jsonl|ndjson)$/i.test(path);
  const ranking: RankingPair[] = [];
  const scored: ScoredPair[] = [];
  let kind: 'ranking' | 'scored' | undefined;
  const bad = (line: number, expected: string, received: string): never => refuse('--pairs', expected, `${received} at ${path}:${line}`);
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let fields: { anchor?: unknown; positive?: unknown; negative?: unknown; a?: unknown; b?: unknown; label?: unknown };
    if (jsonl) {
      try {
        fields = JSON.parse(line) as typeof fields;
      } catch (error) {
        return bad(i + 1, 'one JSON object per line', (error as Error).message);
      }
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return bad(i + 1, 'a JSON object', JSON.stringify(fields));
    } else {
      const columns = line.split('\t');
      if (columns.length < 2 || columns.length > 3) return bad(i + 1, 'two or three tab-separated columns', `${columns.length} column(s)`);
      const label = columns.length === 3 && columns[2]!.trim() !== '' && Number.isFinite(Number(columns[2])) ? Number(columns[2]) : undefined;
      fields = label === undefined ? { anchor: columns[0], positive: columns[1], ...(columns.length === 3 ? { negative: columns[2] } : {}) } : { a: columns[0], b: columns[1], label };
    }
    const thisKind = 'label' in fields ? 'scored' : 'ranking';
    kind ??= thisKind;
    if (kind !== thisKind) bad(i + 1, kind === 'ranking' ? 'an (anchor, positive[, negative]) pair like the lines before' : 'an (a, b, label) pair like the lines before', thisKind === 'ranking' ? 'a pair without a label' : 'a labelled pair');
    if (kind === 'scored') {
      if (typeof fields.a !== 'string' || typeof fields.b !== 'string' || typeof fields.label !== 'number' || !Number.isFinite(fields.label)) bad(i + 1, '"a" and "b" texts and a finite number "label"', JSON.stringify(fields).slice(0, 80));
      scored.push({ a: fields.a as string, b: fields.b as string, label: fields.label as number });
    } else {
      if (typeof fields.anchor !== 'string' || typeof fields.positive !== 'string' || (fields.negative !== undefined && typeof fields.negative !== 'string')) bad(i + 1, '"anchor" and "positive" texts (and an optional "negative")', JSON.stringify(fields).slice(0, 80));
      ranking.push({ anchor: fields.anchor as string, positive: fields.positive as string, ...(fields.negative === undefined ? {} : { negative: fields.negative as string }) });
    }
  });
  if (kind === undefined) refuse('--pairs', 'at least one pair', `${path} has none`);
  return kind === 'scored' ? { loss: 'cosine-similarity', pairs: scored } : { loss: 'multiple-negatives-ranking', pairs: ranking };
}

/**
 * Reads a texts file for masked-language-model pre-training: one text per line, or JSONL objects
 * `{ "text": ... }` (`.jsonl`, `.ndjson`). Blank lines are skipped.
 *
 * @example
 * readTexts('corpus.txt'); // ['the first text', 'the second text', ...]
 */
export function readTexts(path: string): string[] {
  const text = readTrainingFile(path, '--texts');
  const jsonl = /\.(jsonl|ndjson)$/i.test(path);
  const texts: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    if (!jsonl) {
      texts.push(line);
      return;
    }
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      refuse('--texts', 'one JSON object per line', `${(error as Error).message} at ${path}:${i + 1}`);
    }
    const value = (record as { text?: unknown } | null)?.text;
    if (typeof value !== 'string' || value.trim() === '') refuse('--texts', 'a JSON object with a non-empty "text"', `${JSON.stringify(record).slice(0, 80)} at ${path}:${i + 1}`);
    texts.push(value as string);
  });
  if (texts.length === 0) refuse('--texts', 'at least one text', `${path} has none`);
  return texts;
}

/**
 * Fine-tunes the model as the request says, continuing from `OUTPUT.checkpoints/` if an earlier
 * run was interrupted, and writes `OUTPUT`. `signal` stops after the current step (a checkpoint is
 * written; status `'interrupted'`).
 *
 * @example
 * const summary = await runTrain(parseTrainArgs(['--model', './base', '--pairs', 'p.jsonl', '--output', './tuned']));
 */
export async function runTrain(request: TrainRequest, options: { signal?: AbortSignal; onProgress?: (progress: TrainingProgress) => void } = {}): Promise<TrainSummary> {
  const started = performance.now();
  if (existsSync(request.output) && !request.overwrite) refuse('--output', 'a folder that does not exist yet (or --overwrite)', `${request.output} exists`);
  checkModelFolder(TRAIN_COMMAND, '--model', request.model);
  const checkpoints = `${request.output}.checkpoints`;
  const resume = !request.overwrite && existsSync(checkpoints);
  let stepsThisRun = 0;
  const shared = {
    ...(request.maxSteps === undefined ? { epochs: request.epochs ?? 1 } : { maxSteps: request.maxSteps }),
    seed: request.seed,
    checkpoint: { folder: checkpoints, source: request.model, every: request.checkpointEvery },
    ...(resume ? { resume: checkpoints } : {}),
    onProgress: (progress: TrainingProgress) => {
      stepsThisRun++;
      options.onProgress?.(progress);
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const summary = (loss: TrainSummary['loss'], examples: number, history: TrainingHistory): TrainSummary => {
    const seconds = (performance.now() - started) / 1000;
    return {
      output: request.output,
      loss,
      examples,
      steps: history.steps,
      resumedSteps: history.steps - stepsThisRun,
      firstLoss: shortestFloat32(history.losses[0] ?? Number.NaN), // float32 losses, as the shortest decimals that read back the same
      lastLoss: shortestFloat32(history.losses.at(-1) ?? Number.NaN),
      seconds: Math.round(seconds * 10) / 10,
      stepsPerSecond: Math.round((stepsThisRun / seconds) * 100) / 100,
      status: history.aborted ? 'interrupted' : 'complete',
    };
  };
  if (request.texts !== undefined) {
    const texts = readTexts(request.texts);
    await useBackend(request.backend);
    const tokenizer = await loadTokenizer(request.model);
    const model = await loadBertForMaskedLM(request.model, { seed: request.seed });
    try {
      const history = await trainMaskedLanguageModel(model, tokenizer, texts, {
        ...shared,
        batchSize: Math.min(request.batchSize, texts.length),
        learningRate: request.learningRate ?? 5e-5,
        warmupRatio: request.warmupRatio ?? 0,
      });
      if (!history.aborted) await saveMaskedLMFolder(model, request.output, { source: request.model, overwrite: request.overwrite });
      return summary('masked-language-model', texts.length, history);
    } finally {
      model.dispose();
    }
  }
  const { loss, pairs } = readPairs(request.pairs!);
  await useBackend(request.backend);
  const model = await loadSentenceEncoder(request.model);
  try {
    const history = await trainSentenceEncoder(model, pairs as RankingPair[] & ScoredPair[], {
      ...shared,
      loss,
      batchSize: Math.min(request.batchSize, pairs.length),
      learningRate: request.learningRate ?? 2e-5,
      warmupRatio: request.warmupRatio ?? 0.1,
    });
    if (!history.aborted) await saveSentenceFolder(model, request.output, { source: request.model, overwrite: request.overwrite });
    return summary(loss, pairs.length, history);
  } finally {
    model.dispose();
  }
}
