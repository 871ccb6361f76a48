import { reshape, tidy, transpose, type Tensor, type Tensor4D } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkOptionKeys, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { checkBoolMask } from './check-bool-mask.js';
import { checkRankTwo } from './check-rank-two.js';

/** The attention a mask must fit: scores are `[B, H, T, S]`. */
export interface MaskTarget {
  readonly batch: number;
  readonly heads: number;
  readonly queryLength: number;
  readonly keyLength: number;
}

/** Options of {@link validateMask}. */
export interface ValidateMaskOptions extends MaskTarget {
  /** `'seq-first'`: labml's `[T or 1, S, B or 1]` masks. Never guessed. Default `'batch-first'`. */
  readonly layout?: 'batch-first' | 'seq-first';
  /** Named in errors (default `'validateMask'`). */
  readonly caller?: string;
  /** Named in errors (default `'mask'`). */
  readonly argument?: string;
}

type Axis = 'B' | 'H' | 'T' | 'S';
const PLACEMENT: Record<'batch-first' | 'seq-first', Record<number, readonly Axis[]>> = {
  'batch-first': { 2: ['T', 'S'], 3: ['B', 'T', 'S'], 4: ['B', 'H', 'T', 'S'] },
  'seq-first': { 3: ['T', 'S', 'B'] },
};
const RANK_RULES = {
  'batch-first': 'rank 2 [T, S], rank 3 [B, T, S] or rank 4 [B, H, T, S]',
  'seq-first': 'rank 3 [T, S, B] (the seq-first layout)',
};

function hintFor(shape: readonly number[], target: MaskTarget, layout: string): string | undefined {
  const { batch, queryLength, keyLength } = target;
  if (layout === 'batch-first' && shape.length === 2 && shape[0] === batch && shape[1] === keyLength) {
    return 'A [B, S] padding mask must be expanded to [B, 1, 1, S]; use paddingMask() or paddingMaskFromIds().';
  }
  if (layout === 'batch-first' && shape.length === 3 && shape[1] === keyLength && (shape[2] === batch || shape[2] === 1) && (shape[0] === queryLength || shape[0] === 1)) {
    return "If this is a seq-first [T, S, B] mask (labml's layout), pass layout: 'seq-first'.";
  }
  return undefined;
}

/**
 * The `prepare_mask` idea (labml) made complete: checks that a bool mask fits attention scores
 * `[B, H, T, S]` — every dimension 1 (broadcast) or equal — and returns it as rank 4.
 *
 * Placement rules (batch-first): rank 2 is `[T, S]` (one mask for every sequence and head), rank 3
 * is `[B, T, S]` (shared by the heads), rank 4 is `[B, H, T, S]`. With `layout: 'seq-first'`,
 * rank 3 is labml's seq-first `[T, S, B]`. A rank-2 mask whose first dimension equals both B and T
 * (B = T > 1) is refused as ambiguous: it could be a `[B, S]` padding mask (see {@link checkRankTwo}).
 *
 * @returns a new bool `[B|1, H|1, T|1, S|1]` tensor (dispose it)
 * @example
 * validateMask(paddingMask([3, 2], 3), { batch: 2, heads: 4, queryLength: 3, keyLength: 3 }); // [2, 1, 1, 3]
 * validateMask(mask2d, { ... }); // a [B, S] mask: error "... use paddingMask() ..."
 */
export function validateMask(mask: Tensor, options: ValidateMaskOptions): Tensor4D {
  checkObject(options, { caller: 'validateMask', argument: 'options', expected: 'an object { batch, heads, queryLength, keyLength, caller?, ... }' });
  checkOptionKeys(options, ['batch', 'heads', 'queryLength', 'keyLength', 'layout', 'caller', 'argument'], 'validateMask');
  const { caller = 'validateMask', argument = 'mask', layout = 'batch-first' } = options;
  for (const [name, value] of [['caller', caller], ['argument', argument]] as const) {
    if (typeof value !== 'string') throw new InvalidArgumentError({ caller: 'validateMask', argument: name, expected: 'a string (the name errors give)', received: describeValue(value) });
  }
  const target: MaskTarget = {
    batch: checkInteger(options.batch, { caller, argument: 'batch', min: 1 }),
    heads: checkInteger(options.heads, { caller, argument: 'heads', min: 1 }),
    queryLength: checkInteger(options.queryLength, { caller, argument: 'queryLength', min: 1 }),
    keyLength: checkInteger(options.keyLength, { caller, argument: 'keyLength', min: 1 }),
  };
  if (layout !== 'batch-first' && layout !== 'seq-first') {
    throw new InvalidArgumentError({ caller, argument: 'layout', expected: "'batch-first' or 'seq-first'", received: typeof layout === 'string' ? layout : describeValue(layout) });
  }
  checkBoolMask(mask, caller, argument);
  const axes = PLACEMENT[layout][mask.rank];
  const sizes: Record<Axis, number> = { B: target.batch, H: target.heads, T: target.queryLength, S: target.keyLength };
  const goal = `[B, H, T, S] = ${formatShape([target.batch, target.heads, target.queryLength, target.keyLength])}`;
  if (axes === undefined) {
    throw new InvalidArgumentError({ caller, argument, expected: `${RANK_RULES[layout]}, broadcastable to ${goal}`, received: `rank ${mask.rank} ${formatShape(mask.shape)}` });
  }
  if (layout === 'batch-first') checkRankTwo(mask.shape, target, caller, argument);
  axes.forEach((axis, i) => {
    const size = mask.shape[i] as number;
    if (size !== 1 && size !== sizes[axis]) {
      const hint = hintFor(mask.shape, target, layout);
      throw new InvalidArgumentError({
        caller,
        argument,
        expected: `broadcastable to ${goal} (read as [${axes.join(', ')}]; each dimension 1 or equal)`,
        received: `${formatShape(mask.shape)}, whose dimension ${i} (${axis}) is ${size}, expected 1 or ${sizes[axis]}`,
        ...(hint === undefined ? {} : { hint }),
      });
    }
  });
  const [d0 = 1, d1 = 1, d2 = 1, d3 = 1] = mask.shape;
  return tidy(() => {
    if (layout === 'seq-first') return reshape(transpose(mask, [2, 0, 1]), [d2, 1, d0, d1]); // [T, S, B] -> [B, 1, T, S]
    if (mask.rank === 2) return reshape(mask, [1, 1, d0, d1]); // [T, S] -> [1, 1, T, S]
    if (mask.rank === 3) return reshape(mask, [d0, 1, d1, d2]); // [B, T, S] -> [B, 1, T, S]
    return reshape(mask, [d0, d1, d2, d3]); // [B, H, T, S]
  }) as Tensor4D;
}
