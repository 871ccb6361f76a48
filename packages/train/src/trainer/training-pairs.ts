import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/** A training example for `'multiple-negatives-ranking'`: a text, its positive, and optionally a hard negative. */
export interface RankingPair {
  readonly anchor: string;
  readonly positive: string;
  readonly negative?: string;
}

/** A training example for `'cosine-similarity'`: two texts and the cosine their embeddings should have. */
export interface ScoredPair {
  readonly a: string;
  readonly b: string;
  readonly label: number;
}

/** The losses {@link trainSentenceEncoder} trains with. */
export const SENTENCE_LOSSES = ['multiple-negatives-ranking', 'cosine-similarity'] as const;
export type SentenceLoss = (typeof SENTENCE_LOSSES)[number];

/** The examples in one shape: the texts of each example in column order, and a label for the cosine loss. */
export interface CheckedPairs {
  /** `texts[i]`: example `i`'s texts: `[anchor, positive]`, `[anchor, positive, negative]` or `[a, b]`. */
  readonly texts: ReadonlyArray<readonly string[]>;
  /** Labels of the cosine loss (empty for the ranking loss). */
  readonly labels: readonly number[];
}

/**
 * Checks the training data for `loss` and returns it in one shape. Every example must have the
 * fields of its loss as strings (and a finite `label`); with the ranking loss either every example
 * has a `negative` or none has (a batch stacks one set of hard negatives). The error names the
 * first bad example by index.
 *
 * @example
 * checkTrainingPairs([{ anchor: 'a cat', positive: 'a kitten' }], 'multiple-negatives-ranking'); // { texts: [['a cat', 'a kitten']], labels: [] }
 */
export function checkTrainingPairs(data: unknown, loss: SentenceLoss, caller = 'trainSentenceEncoder'): CheckedPairs {
  if (!Array.isArray(data)) throw new InvalidArgumentError({ caller, argument: 'data', expected: 'a list of training pairs', received: describeValue(data) });
  if (data.length === 0) throw new InvalidArgumentError({ caller, argument: 'data', expected: 'at least one training pair', received: 'an empty list' });
  if (!(SENTENCE_LOSSES as readonly unknown[]).includes(loss)) throw new InvalidArgumentError({ caller, argument: 'loss', expected: SENTENCE_LOSSES.map((l) => `'${l}'`).join(' or '), received: describeValue(loss) });
  const ranking = loss === 'multiple-negatives-ranking';
  const fields = ranking ? (['anchor', 'positive'] as const) : (['a', 'b'] as const);
  const shape = ranking ? '{ anchor, positive, negative? } with string texts' : '{ a, b, label } with string texts and a finite number label';
  const withNegative = ranking && typeof (data[0] as { negative?: unknown } | null)?.negative !== 'undefined';
  const texts: string[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const example = data[i] as Record<string, unknown> | null | undefined;
    if (typeof example !== 'object' || example === null || Array.isArray(example)) throw new InvalidArgumentError({ caller, argument: `data[${i}]`, expected: `a pair ${shape}`, received: describeValue(example) });
    const row: string[] = [];
    for (const field of fields) {
      const text = example[field];
      if (typeof text !== 'string') throw new InvalidArgumentError({ caller, argument: `data[${i}].${field}`, expected: `a string (each pair of the '${loss}' loss is ${shape})`, received: describeValue(text) });
      row.push(text);
    }
    if (ranking) {
      const negative = example['negative'];
      if (withNegative !== (negative !== undefined)) {
        throw new InvalidArgumentError({ caller, argument: `data[${i}].negative`, expected: withNegative ? 'a string, as data[0] has a negative (every pair has one, or none has)' : 'absent, as data[0] has no negative (every pair has one, or none has)', received: describeValue(negative) });
      }
      if (negative !== undefined) {
        if (typeof negative !== 'string') throw new InvalidArgumentError({ caller, argument: `data[${i}].negative`, expected: 'a string (a hard negative)', received: describeValue(negative) });
        row.push(negative);
      }
    } else {
      const label = example['label'];
      if (typeof label !== 'number' || !Number.isFinite(label)) throw new InvalidArgumentError({ caller, argument: `data[${i}].label`, expected: 'a finite number (the target cosine, usually in [0, 1] or [-1, 1])', received: describeValue(label) });
      labels.push(label);
    }
    texts.push(row);
  }
  return { texts, labels };
}
