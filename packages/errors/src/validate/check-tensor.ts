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
  const { caller, argument } = requirement;
  const ranks = requirement.rank === undefined ? undefined : ([] as number[]).concat(requirement.rank);
  const dtypes = requirement.dtype === undefined ? undefined : ([] as DataType[]).concat(requirement.dtype);
  const expected = () => { // only when refused; every part made text (a requirement is the caller's, not the user's: a bad one still reports)
    const rankText = ranks === undefined ? '' : ` of rank ${ranks.map((r) => (typeof r === 'number' ? String(r) : messageText(r))).join(' or ')}`;
    const kind = `${dtypes === undefined ? '' : `${dtypes.map(messageText).join(' or ')} `}tensor`;
    return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}${rankText}${requirement.shape === undefined ? '' : ` ${messageText(requirement.shape)}`}`;
  };
  if (!isTensorLike(value)) {
    throw new InvalidArgumentError({ caller, argument, expected: expected(), received: describeValue(value) });
  }
  if (value.isDisposed) {
    throw new InvalidArgumentError({ caller, argument, expected: expected(), received: describeValue(value), hint: 'It was disposed before this call.' });
  }
  if (dtypes !== undefined && !dtypes.includes(value.dtype)) {
    throw new InvalidArgumentError({ caller, argument, expected: expected(), received: describeValue(value), ...(requirement.dtypeHint === undefined ? {} : { hint: requirement.dtypeHint }) });
  }
  if (ranks !== undefined && !ranks.includes(value.rank)) {
    throw new InvalidArgumentError({ caller, argument, expected: expected(), received: describeValue(value) });
  }
  return value;
}
