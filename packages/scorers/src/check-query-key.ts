import type { Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { InvalidArgumentError, checkBoolean, checkInteger, checkObject, checkTensor, formatShape } from '@attnkit/errors';

/** What {@link checkQueryKey} found: the leading (batch) shape and the last dims. */
export interface QueryKeyShapes {
  readonly lead: readonly number[];
  readonly queryLength: number;
  readonly keyLength: number;
  readonly queryDim: number;
  readonly keyDim: number;
}

/**
 * Checks a scorer's inputs: float32 `query [..., T, Dq]` and `key [..., S, Dk]` of the same rank
 * (3: `[B, T, D]`, or 4: `[B, H, T, D]`) with equal leading dims, and `Dq`/`Dk` when the scorer
 * fixes them.
 */
export function checkQueryKey(
  caller: string,
  query: Tensor,
  key: Tensor,
  dims: { readonly queryDim?: number; readonly keyDim?: number; readonly sameDim?: boolean } = {},
): QueryKeyShapes {
  assertBackendReady(caller);
  const owner = typeof caller === 'string' ? caller : 'checkQueryKey';
  checkObject(dims, { caller: owner, argument: 'dims', expected: 'an object { queryDim?, keyDim?, sameDim? }' });
  if (dims.queryDim !== undefined) checkInteger(dims.queryDim, { caller: owner, argument: 'queryDim', min: 1 });
  if (dims.keyDim !== undefined) checkInteger(dims.keyDim, { caller: owner, argument: 'keyDim', min: 1 });
  checkBoolean(dims.sameDim, { caller: owner, argument: 'sameDim', fallback: false });
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: [3, 4], shape: '[B, T, Dq] or [B, H, T, Dq]' });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: [3, 4], shape: '[B, S, Dk] or [B, H, S, Dk]' });
  const lead = query.shape.slice(0, -2);
  if (key.rank !== query.rank || key.shape.slice(0, -2).some((size, i) => size !== lead[i])) {
    throw new InvalidArgumentError({
      caller,
      argument: 'key',
      expected: `the leading dims of 'query' ${formatShape(lead)} (batch${query.rank === 4 ? ', heads' : ''}) and its rank ${query.rank}`,
      received: formatShape(key.shape),
    });
  }
  const shapes = {
    lead,
    queryLength: query.shape[query.rank - 2] as number,
    keyLength: key.shape[key.rank - 2] as number,
    queryDim: query.shape[query.rank - 1] as number,
    keyDim: key.shape[key.rank - 1] as number,
  };
  if (dims.sameDim === true && shapes.keyDim !== shapes.queryDim) {
    throw new InvalidArgumentError({ caller, argument: 'key', expected: `the head dim of 'query' (D = ${shapes.queryDim}) in its last axis`, received: formatShape(key.shape) });
  }
  if (dims.queryDim !== undefined && shapes.queryDim !== dims.queryDim) {
    throw new InvalidArgumentError({ caller, argument: 'query', expected: `last dim ${dims.queryDim} (the scorer's queryDim)`, received: formatShape(query.shape) });
  }
  if (dims.keyDim !== undefined && shapes.keyDim !== dims.keyDim) {
    throw new InvalidArgumentError({ caller, argument: 'key', expected: `last dim ${dims.keyDim} (the scorer's keyDim)`, received: formatShape(key.shape) });
  }
  return shapes;
}
