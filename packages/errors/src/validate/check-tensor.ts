import type { DataType, Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { messageText } from '../message-text.js';
import { describeValue, isTensorLike } from './describe-value.js';
import { checkObject } from './check-object.js';

/** What {@link checkTensor} requires of a tensor argument. */
export interface TensorRequirement {
  readonly caller: string;
  readonly argument: string;
  /** Accepted dtypes (default: any). */
  readonly dtype?: DataType | readonly DataType[];
  /** Accepted ranks (default: any). */
  readonly rank?: number | readonly number[];
  /** The shape in the legend, for messages: `'[B, H, T, D]'`. */
  readonly shape?: string;
  /** How to fix a wrong dtype, e.g. `'Convert PyTorch masks with fromTorchBoolMask().'` */
  readonly dtypeHint?: string;
}

/**
 * Checks that a public argument is a live tensor of an accepted dtype and rank, or throws
 * {@link InvalidArgumentError} naming the argument, what was expected and what was received.
 *
 * @example
 * const q = checkTensor(query, { caller: 'dotProductScorer', argument: 'query', rank: [3, 4], dtype: 'float32', shape: '[B, H, T, D]' });
 */
export function checkTensor(value: unknown, requirement: TensorRequirement): Tensor {
  checkObject(requirement, { caller: 'checkTensor', argument: 'requirement', expected: 'a TensorRequirement object ({ caller, argument, dtype?, rank?, ... })' });
  // the accepted case allocates nothing (called on every op's inputs); the refusals build their text
  if (!isTensorLike(value)) refuse(value, requirement);
  const tensor = value as Tensor;
  if (tensor.isDisposed) refuse(value, requirement, 'It was disposed before this call.');
  const { dtype, rank } = requirement;
  if (dtype !== undefined && (Array.isArray(dtype) ? !dtype.includes(tensor.dtype) : dtype !== tensor.dtype)) refuse(value, requirement, requirement.dtypeHint);
  if (rank !== undefined && (Array.isArray(rank) ? !rank.includes(tensor.rank) : rank !== tensor.rank)) refuse(value, requirement);
  return tensor;
}

/** Throws the {@link InvalidArgumentError} of a refused tensor argument: what was expected (every part made text: a requirement is the caller's, not the user's, and a bad one still reports) and what was received. */
function refuse(value: unknown, requirement: TensorRequirement, hint?: string): never {
  const ranks = requirement.rank === undefined ? undefined : ([] as unknown[]).concat(requirement.rank);
  const dtypes = requirement.dtype === undefined ? undefined : ([] as unknown[]).concat(requirement.dtype);
  const rankText = ranks === undefined ? '' : ` of rank ${ranks.map((r) => (typeof r === 'number' ? String(r) : messageText(r))).join(' or ')}`;
  const kind = `${dtypes === undefined ? '' : `${dtypes.map(messageText).join(' or ')} `}tensor`;
  const expected = `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}${rankText}${requirement.shape === undefined ? '' : ` ${messageText(requirement.shape)}`}`;
  throw new InvalidArgumentError({ caller: requirement.caller, argument: requirement.argument, expected, received: describeValue(value), ...(hint === undefined ? {} : { hint }) });
}
