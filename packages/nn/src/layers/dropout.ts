import { dropout, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkOptionKeys, checkTensor, describeValue } from '@attnkit/errors';
import { Module } from '../module/module.js';

/**
 * `nn.Dropout(p)`: in training mode zeroes each element with probability `p` and scales the rest
 * by `1 / (1 - p)`; in eval mode (the default) returns the values unchanged.
 *
 * `x [...]` → same shape.
 *
 * @example
 * const drop = new Dropout(0.1);
 * drop.train(); drop.forward(x, { seed: 1 }); // ~10 % zeros
 */
export class Dropout extends Module {
  readonly p: number;

  constructor(p = 0.5) {
    super();
    if (typeof p !== 'number' || !(p >= 0 && p < 1)) {
      throw new InvalidArgumentError({ caller: 'Dropout', argument: 'p', expected: 'a rate in [0, 1)', received: describeValue(p) });
    }
    this.p = p;
  }

  /** `x` with dropout applied when training; a copy of `x` otherwise (yours to dispose). `seed` makes the mask reproducible. */
  forward(x: Tensor, options: { readonly seed?: number } = {}): Tensor {
    const caller = 'Dropout.forward';
    this.assertLive(caller);
    const { seed } = checkOptionKeys(options, ['seed'], caller);
    if (seed !== undefined) checkInteger(seed, { caller, argument: 'seed' });
    checkTensor(x, { caller, argument: 'x', dtype: 'float32' });
    return this.training && this.p > 0 ? dropout(x, this.p, undefined, seed) : x.clone(); // a clone shares the data: cheap
  }
}
