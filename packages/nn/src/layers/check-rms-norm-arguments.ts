import { InvalidArgumentError, checkInteger, checkOptionKeys, describeValue } from '@attnkit/errors';

/** Options of `RMSNorm` and `GemmaRMSNorm`. */
export interface RMSNormOptions {
  /** Added to `mean(x²)` inside the square root (default 1e-6, Hugging Face's `rms_norm_eps` default). */
  readonly eps?: number;
}

/**
 * The checked `[normalizedShape, eps]` of an RMSNorm constructor (`RMSNorm`, `GemmaRMSNorm`): a
 * width ≥ 1 and options with only `eps`, a finite number > 0 (default 1e-6).
 *
 * @example
 * const [width, eps] = checkRMSNormArguments(8, { eps: 1e-5 }, 'RMSNorm'); // [8, 1e-5]
 */
export function checkRMSNormArguments(normalizedShape: number, options: RMSNormOptions, caller: string): [number, number] {
  const width = checkInteger(normalizedShape, { caller, argument: 'normalizedShape', min: 1 });
  const { eps = 1e-6 } = checkOptionKeys(options, ['eps'], caller);
  if (typeof eps !== 'number' || !(eps > 0) || !Number.isFinite(eps)) {
    throw new InvalidArgumentError({ caller, argument: 'eps', expected: 'a finite number > 0', received: describeValue(eps) });
  }
  return [width, eps];
}
