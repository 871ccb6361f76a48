import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';

/** Options of {@link maskTokens}. */
export interface MaskTokensOptions {
  /** Ids are drawn for random replacements from `[0, vocabSize)`. */
  readonly vocabSize: number;
  /** The `[MASK]` token's id. */
  readonly maskTokenId: number;
  /** Ids never selected (`[CLS]`, `[SEP]`, `[PAD]`, ...). Padding (mask 0) is never selected either. */
  readonly isSpecial: (id: number) => boolean;
  /** The chance of selecting each token (default 0.15). */
  readonly probability?: number;
  /** Of the selected, the share replaced by `[MASK]` (default 0.8). */
  readonly maskReplaceProbability?: number;
  /** Of the selected, the share replaced by a random id (default 0.1); the rest keep their token. */
  readonly randomReplaceProbability?: number;
  /** Uniform floats in `[0, 1)` (a seeded generator makes the masking reproducible). */
  readonly random: () => number;
}

/** What {@link maskTokens} returns: the corrupted batch and what to predict. */
export interface MaskedTokens {
  /** The ids the model sees, `[B, T]`. */
  readonly inputIds: number[][];
  /** The original id at each selected position, -100 elsewhere (transformers' labels), `[B, T]`. */
  readonly labels: number[][];
  /** The selected positions, flat (`b · T + t`), in order. */
  readonly positions: number[];
  /** The original ids at `positions`. */
  readonly targets: number[];
}

/**
 * Masked-language-model corruption as transformers' `DataCollatorForLanguageModeling` does it:
 * each token that is neither special nor padding is selected with `probability` (15 %); a selected
 * token becomes `[MASK]` (80 %), a random id (10 %) or stays (10 %), and is the one to predict.
 * One difference: a batch in which nothing was selected (a few short texts) gets one position
 * selected at random, so the loss is never an average over nothing (transformers' is NaN there).
 * `inputIds [B, T]`, `attentionMask [B, T]` (1 = token) → a new batch; the inputs are not changed.
 *
 * @example
 * const { inputIds, positions, targets } = maskTokens(batch.inputIds, batch.attentionMask, {
 *   vocabSize: 30522, maskTokenId: 103, isSpecial: (id) => id === 101 || id === 102 || id === 0, random: seededRandom(42),
 * });
 */
export function maskTokens(inputIds: readonly (readonly number[])[], attentionMask: readonly (readonly number[])[], options: MaskTokensOptions): MaskedTokens {
  const caller = 'maskTokens';
  checkObject(options, { caller, argument: 'options', expected: 'an object { vocabSize, maskTokenId, isSpecial, random, ... }' });
  const vocabSize = checkInteger(options.vocabSize, { caller, argument: 'vocabSize', min: 1 });
  const maskTokenId = checkInteger(options.maskTokenId, { caller, argument: 'maskTokenId', min: 0, max: vocabSize - 1 });
  const share = (argument: string, value: unknown, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new InvalidArgumentError({ caller, argument, expected: 'a number from 0 to 1', received: describeValue(value) });
    return value;
  };
  const probability = share('probability', options.probability, 0.15);
  const maskShare = share('maskReplaceProbability', options.maskReplaceProbability, 0.8);
  const randomShare = share('randomReplaceProbability', options.randomReplaceProbability, 0.1);
  if (maskShare + randomShare > 1) throw new InvalidArgumentError({ caller, argument: 'randomReplaceProbability', expected: `at most 1 - maskReplaceProbability = ${1 - maskShare}`, received: String(randomShare) });
  if (typeof options.isSpecial !== 'function') throw new InvalidArgumentError({ caller, argument: 'isSpecial', expected: 'a function (id) => boolean', received: describeValue(options.isSpecial) });
  if (typeof options.random !== 'function') throw new InvalidArgumentError({ caller, argument: 'random', expected: 'a function returning floats in [0, 1), e.g. a seeded generator', received: describeValue(options.random) });
  if (!Array.isArray(inputIds) || !Array.isArray(attentionMask) || attentionMask.length !== inputIds.length) throw new InvalidArgumentError({ caller, argument: 'attentionMask', expected: `a list of ${Array.isArray(inputIds) ? inputIds.length : '?'} rows, one per row of inputIds`, received: describeValue(attentionMask) });
  const length = inputIds[0]?.length ?? 0;
  const eligible: number[] = [];
  inputIds.forEach((row, b) => {
    if (!Array.isArray(row) || row.length !== length || attentionMask[b]?.length !== length) throw new InvalidArgumentError({ caller, argument: `inputIds[${b}]`, expected: `a row of ${length} ids with a mask row of the same length (a padded batch)`, received: describeValue(row) });
    row.forEach((id, t) => {
      if (!Number.isInteger(id) || id < 0 || id >= vocabSize) throw new InvalidArgumentError({ caller, argument: `inputIds[${b}][${t}]`, expected: `an id in [0, ${vocabSize})`, received: describeValue(id) });
      if (attentionMask[b]![t] !== 0 && !options.isSpecial(id)) eligible.push(b * length + t);
    });
  });
  const random = options.random;
  let positions = eligible.filter(() => random() < probability);
  if (positions.length === 0 && eligible.length > 0) positions = [eligible[Math.floor(random() * eligible.length)]!];
  const ids = inputIds.map((row) => [...row]);
  const labels = inputIds.map((row) => row.map(() => -100));
  const targets: number[] = [];
  for (const flat of positions) {
    const [b, t] = [Math.floor(flat / length), flat % length];
    const original = inputIds[b]![t]!;
    labels[b]![t] = original;
    targets.push(original);
    const draw = random();
    if (draw < maskShare) ids[b]![t] = maskTokenId;
    else if (draw < maskShare + randomShare) ids[b]![t] = Math.floor(random() * vocabSize);
  }
  return { inputIds: ids, labels, positions, targets };
}
