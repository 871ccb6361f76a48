import { InvalidArgumentError } from '@attnkit/errors';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { parseEncoderConfig } from '../encoder/parse-encoder-config.js';
import { configEntries } from '../encoder/read-encoder-config.js';

/** Hugging Face's `problem_type`s: what the logits are trained for (the loss), kept as the folder says. */
export const PROBLEM_TYPES = ['regression', 'single_label_classification', 'multi_label_classification'] as const;

/** One of {@link PROBLEM_TYPES}. */
export type ProblemType = (typeof PROBLEM_TYPES)[number];

/**
 * An encoder config with the sequence-classification keys of `config.json` (camelCase here):
 * `numLabels`, `id2label` / `label2id`, `problemType` and the head's dropout.
 */
export interface SequenceClassificationConfig extends EncoderConfig {
  /** Width of the logits `[B, numLabels]`: the length of `id2label`, else `num_labels`, else 2 (transformers' default). */
  readonly numLabels: number;
  /** The label of each logit, by index (`LABEL_0`, ... when the folder names none). */
  readonly id2label: readonly string[];
  /** Label → index, as the folder says (derived from `id2label` when absent). */
  readonly label2id: ReadonlyMap<string, number>;
  /** `problem_type`, or undefined when the folder leaves it unset (transformers then picks it by the labels' dtype). */
  readonly problemType: ProblemType | undefined;
  /** The head's dropout: `classifier_dropout` ?? `hidden_dropout_prob` (DistilBERT: `seq_classif_dropout`; MPNet: `hidden_dropout_prob`; ModernBERT: `classifier_dropout` ?? 0). */
  readonly classifierDropout: number;
}

/**
 * Reads a sequence-classification `config.json` of any encoder family, as transformers 5.17's
 * `PretrainedConfig` does: `id2label` (keys `"0"` ... `"N-1"`) gives the labels and their number;
 * without it, `num_labels` (default 2) labels named `LABEL_i`. `problem_type`, if set, is one of
 * {@link PROBLEM_TYPES} (`single_label_classification` needs 2 or more labels). A `null` value reads
 * as the key left out. Errors name the key.
 *
 * @example
 * const config = parseSequenceClassificationConfig(JSON.parse(await readFile('model/config.json', 'utf8')));
 * config.id2label; // ['NEGATIVE', 'POSITIVE']
 */
export function parseSequenceClassificationConfig(json: unknown, caller = 'parseSequenceClassificationConfig'): SequenceClassificationConfig {
  caller = typeof caller === 'string' ? caller : 'parseSequenceClassificationConfig'; // a caller only names the function in messages
  const encoder = parseEncoderConfig(json, caller);
  const raw = configEntries(json, caller);
  const fail = (argument: string, expected: string, received: unknown): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received: JSON.stringify(received) ?? String(received) });
  };
  const given = raw.get('id2label');
  let id2label: string[];
  if (given === undefined || given === null) {
    const count = raw.get('num_labels') ?? 2;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1_000_000) fail('num_labels', 'an integer from 1 to 1000000', count);
    id2label = Array.from({ length: count as number }, (_, i) => `LABEL_${i}`);
  } else {
    if (typeof given !== 'object' || Array.isArray(given)) fail('id2label', 'an object of label index ("0", "1", ...) → label name', given);
    const entries = Object.entries(given as object);
    if (entries.length === 0 || entries.length > 1_000_000) fail('id2label', 'one to 1000000 labels', given);
    id2label = new Array<string>(entries.length);
    for (const [key, name] of entries) {
      const index = /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
      if (index < 0 || index >= entries.length || id2label[index] !== undefined) fail('id2label', `the indexes 0 to ${entries.length - 1}, each once (one per logit)`, Object.keys(given as object));
      if (typeof name !== 'string') fail(`id2label.${key}`, 'a label name (a string)', name);
      id2label[index] = name as string;
    }
  }
  const label2id = readLabel2id(raw.get('label2id'), id2label, fail);
  const problemType = raw.get('problem_type') ?? undefined;
  if (problemType !== undefined && !(PROBLEM_TYPES as readonly unknown[]).includes(problemType)) fail('problem_type', PROBLEM_TYPES.map((p) => `"${p}"`).join(', '), problemType);
  if (problemType === 'single_label_classification' && id2label.length === 1) fail('problem_type', '"regression" for one label ("single_label_classification" needs 2 or more labels)', problemType);
  return { ...encoder, numLabels: id2label.length, id2label, label2id, problemType: problemType as ProblemType | undefined, classifierDropout: headDropout(encoder, raw, fail) };
}

/** `label2id` as the folder says, each id a logit index; derived from `id2label` when absent. */
function readLabel2id(given: unknown, id2label: readonly string[], fail: (argument: string, expected: string, received: unknown) => never): ReadonlyMap<string, number> {
  if (given === undefined || given === null) return new Map(id2label.map((name, i) => [name, i]));
  if (typeof given !== 'object' || Array.isArray(given)) fail('label2id', 'an object of label name → index', given);
  const map = new Map<string, number>();
  for (const [name, index] of Object.entries(given as object)) {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= id2label.length) fail(`label2id.${name}`, `a label index in [0, ${id2label.length})`, index);
    map.set(name, index as number);
  }
  return map;
}

/** The dropout rate of the family's classification head. */
function headDropout(config: EncoderConfig, raw: ReadonlyMap<string, unknown>, fail: (argument: string, expected: string, received: unknown) => never): number {
  const [key, fallback] = config.modelType === 'distilbert' ? ['seq_classif_dropout', 0.2] : config.modelType === 'mpnet' ? ['', config.hiddenDropoutProb] : config.modelType === 'modernbert' ? ['classifier_dropout', 0] : ['classifier_dropout', config.hiddenDropoutProb];
  const value = key === '' ? fallback : (raw.get(key) ?? fallback);
  if (typeof value !== 'number' || !(value >= 0 && value < 1)) fail(key, 'a probability in [0, 1) or null', value);
  return value as number;
}
