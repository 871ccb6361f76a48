/** How {@link bertCheckpointKeys} reads a checkpoint's tensor names. */
export interface BertCheckpointKeys {
  /** Stored name → the `BertModel` parameter key it loads into. */
  readonly keys: Map<string, string>;
  /** Tensors of heads a `BertModel` does not have (`cls.*`, `classifier.*`, `qa_outputs.*`), skipped. */
  readonly skipped: string[];
  /** Stored names that are buffers, not weights (`embeddings.position_ids`), ignored. */
  readonly buffers: string[];
  /** Groups of stored names that would load into one parameter: `[key, stored names]`. */
  readonly duplicates: Array<[string, string[]]>;
}

const HEADS = ['cls.', 'classifier.', 'qa_outputs.'];
const BUFFERS = new Set(['embeddings.position_ids', 'embeddings.token_type_ids']);
const LEGACY_NORM = { gamma: 'weight', beta: 'bias' } as const;

/**
 * The one place where the names real BERT checkpoints use become `BertModel` parameter keys:
 * the `bert.` prefix of pre-training and task checkpoints is dropped, the legacy (TensorFlow-era)
 * `LayerNorm.gamma` / `LayerNorm.beta` become `LayerNorm.weight` / `LayerNorm.bias`, buffers are
 * ignored, heads are skipped and listed, and two names that would fill one parameter
 * (`bert.pooler.dense.weight` and `pooler.dense.weight`) are reported, never resolved silently.
 *
 * @example
 * bertCheckpointKeys(['bert.embeddings.LayerNorm.gamma', 'cls.predictions.bias']);
 * // keys: { 'bert.embeddings.LayerNorm.gamma' => 'embeddings.LayerNorm.weight' }, skipped: ['cls.predictions.bias']
 */
export function bertCheckpointKeys(names: Iterable<string>): BertCheckpointKeys {
  const keys = new Map<string, string>();
  const skipped: string[] = [];
  const buffers: string[] = [];
  const byKey = new Map<string, string[]>();
  for (const stored of names) {
    if (HEADS.some((head) => stored.startsWith(head))) {
      skipped.push(stored);
      continue;
    }
    const segments = (stored.startsWith('bert.') ? stored.slice(5) : stored).split('.');
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
