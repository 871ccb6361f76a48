import type { ModelType } from './encoder-config.js';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/** How {@link checkpointKeys} reads a checkpoint's tensor names. */
export interface CheckpointKeys {
  /** Stored name → the model parameter key it loads into. */
  readonly keys: Map<string, string>;
  /** Tensors of heads the encoder does not have (`cls.*`, `lm_head.*`, `classifier.*`, ...), skipped. */
  readonly skipped: string[];
  /** Stored names that are buffers, not weights (`embeddings.position_ids`), ignored. */
  readonly buffers: string[];
  /** Groups of stored names that would load into one parameter: `[key, stored names]`. */
  readonly duplicates: Array<[string, string[]]>;
}

/** The prefix each family's task and pre-training checkpoints put before the encoder's keys (`bert.`, `roberta.`, ModernBERT's `model.`, ...): where the encoder sits in a model with a head. */
export const FAMILY_PREFIX: Readonly<Record<ModelType, string>> = { bert: 'bert.', distilbert: 'distilbert.', roberta: 'roberta.', 'xlm-roberta': 'roberta.', electra: 'electra.', mpnet: 'mpnet.', roformer: 'roformer.', modernbert: 'model.' };
/** Heads of pre-training and task models, none of which the encoder has (`head.` and `decoder.`: ModernBERT's). */
const HEADS = ['cls.', 'lm_head.', 'classifier.', 'qa_outputs.', 'pre_classifier.', 'vocab_transform.', 'vocab_layer_norm.', 'vocab_projector.', 'discriminator_predictions.', 'generator_predictions.', 'generator_lm_head.', 'sequence_summary.', 'head.', 'decoder.'];
const BUFFERS = new Set(['embeddings.position_ids', 'embeddings.token_type_ids']);
const LEGACY_NORM = { gamma: 'weight', beta: 'bias' } as const;

/**
 * The one place where the names real checkpoints use become encoder parameter keys: the family's
 * prefix (`bert.`, `roberta.`, `distilbert.`, `electra.`, `mpnet.`) of pre-training and task
 * checkpoints is dropped, the legacy (TensorFlow-era) `LayerNorm.gamma` / `LayerNorm.beta` become
 * `LayerNorm.weight` / `LayerNorm.bias`, buffers are ignored, heads are skipped and listed, and two
 * names that would fill one parameter (`bert.pooler.dense.weight` and `pooler.dense.weight`) are
 * reported, never resolved silently.
 *
 * @example
 * checkpointKeys(['bert.embeddings.LayerNorm.gamma', 'cls.predictions.bias']);
 * // keys: { 'bert.embeddings.LayerNorm.gamma' => 'embeddings.LayerNorm.weight' }, skipped: ['cls.predictions.bias']
 * checkpointKeys(['roberta.embeddings.word_embeddings.weight', 'lm_head.dense.weight'], 'roberta');
 */
export function checkpointKeys(names: Iterable<string>, modelType: ModelType = 'bert'): CheckpointKeys {
  if (typeof names === 'string' || typeof (names as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') throw new InvalidArgumentError({ caller: 'checkpointKeys', argument: 'names', expected: 'an iterable of tensor names (not a string)', received: describeValue(names) });
  if (typeof modelType !== 'string' || !Object.hasOwn(FAMILY_PREFIX, modelType)) throw new InvalidArgumentError({ caller: 'checkpointKeys', argument: 'modelType', expected: Object.keys(FAMILY_PREFIX).map((t) => `"${t}"`).join(', '), received: describeValue(modelType) });
  const prefix = FAMILY_PREFIX[modelType];
  const keys = new Map<string, string>();
  const skipped: string[] = [];
  const buffers: string[] = [];
  const byKey = new Map<string, string[]>();
  for (const stored of names as Iterable<unknown>) {
    if (typeof stored !== 'string') throw new InvalidArgumentError({ caller: 'checkpointKeys', argument: 'names', expected: 'an iterable of tensor names (strings)', received: `${describeValue(stored)} among them` });
    if (HEADS.some((head) => stored.startsWith(head))) {
      skipped.push(stored);
      continue;
    }
    const segments = (stored.startsWith(prefix) ? stored.slice(prefix.length) : stored).split('.');
    const last = segments.at(-1) as string;
    if (segments.at(-2) === 'LayerNorm' && Object.hasOwn(LEGACY_NORM, last)) segments[segments.length - 1] = LEGACY_NORM[last as keyof typeof LEGACY_NORM];
    const key = segments.join('.');
    if (BUFFERS.has(key)) {
      buffers.push(stored);
      continue;
    }
    keys.set(stored, key);
    byKey.set(key, [...(byKey.get(key) ?? []), stored]);
  }
  const duplicates = [...byKey].filter(([, stored]) => stored.length > 1);
  return { keys, skipped, buffers, duplicates };
}
