import { checkInteger, checkObject, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';

/**
 * A rank-2 mask or bias is read as `[T, S]` (one per query-key pair, like PyTorch's 2-D
 * `attn_mask`). When the batch equals the query length, a `[B, S]` padding mask has the very same
 * shape and would silently be read as `[T, S]`. This check refuses that ambiguous case — a rank-2
 * tensor whose first dimension equals both B and T (B = T > 1) — and names both explicit layouts.
 * Shapes: `shape` `[T, S]`; `target` `{ batch: B, queryLength: T }`.
 *
 * @example
 * checkRankTwo([3, 7], { batch: 3, queryLength: 3 }, 'scaledDotProductAttention', 'mask'); // throws: ambiguous
 * checkRankTwo([5, 7], { batch: 3, queryLength: 5 }, 'scaledDotProductAttention', 'mask'); // fine: [T, S]
 */
export function checkRankTwo(shape: readonly number[], target: { readonly batch: number; readonly queryLength: number }, caller: string, argument: string): void {
  if (!Array.isArray(shape) || !Array.from(shape).every((size) => Number.isInteger(size))) { // Array.from: a hole reads as undefined, refused
    throw new InvalidArgumentError({ caller: 'checkRankTwo', argument: 'shape', expected: 'a shape (a list of integers)', received: describeValue(shape) });
  }
  const { batch, queryLength } = checkObject(target, { caller: 'checkRankTwo', argument: 'target', expected: 'the sizes { batch, queryLength }' });
  checkInteger(batch, { caller: 'checkRankTwo', argument: 'target.batch', min: 0 });
  checkInteger(queryLength, { caller: 'checkRankTwo', argument: 'target.queryLength', min: 0 });
  if (shape.length !== 2) return;
  if (batch > 1 && batch === queryLength && shape[0] === batch) {
    throw new InvalidArgumentError({
      caller,
      argument,
      expected: `an unambiguous layout: with B = T = ${batch}, a rank-2 ${formatShape(shape)} could be [T, S] or a [B, S] padding mask`,
      received: `rank 2 ${formatShape(shape)}`,
      hint: 'Pass [1, 1, T, S] (or [1, T, S]) for one mask of every query-key pair, or [B, 1, 1, S] for key padding (paddingMask() or paddingMaskFromIds() build it).',
    });
  }
}
