import { AttnkitError } from '@attnkit/errors';
import type { CatalogueCase } from '../catalogue/catalogue-case.js';
import { findNonFinite } from './find-non-finite.js';

/**
 * How one run of a catalogue case went. The first two are passes; the last four fail the run
 * (leaks are counted apart, as a case can end well and still leave tensors behind).
 */
export type Outcome = 'typed error' | 'documented result' | 'crash' | 'hang' | 'garbage' | 'silent wrong';

/** What a case's `run` did: returned a value, threw, or outlived the watchdog. */
export type CaseEnding = { readonly returned: unknown } | { readonly threw: unknown } | { readonly hung: number };

const show = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 200);
const describeError = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : `a thrown ${show(error)}`).slice(0, 300);

/**
 * Classifies a case's ending against what the catalogue documents for it:
 * - `typed error`: the expected AttnkitError class (any subclass for `'AttnkitError'`) and message;
 * - `documented result`: no error, no NaN/±Infinity (unless the case documents them) and `check` passes;
 * - `crash`: an untyped exception, another error class or message, or any error where a result is documented;
 * - `hang`: the watchdog bound was exceeded;
 * - `garbage`: NaN or ±Infinity in the returned value where the documented result has none;
 * - `silent wrong`: no error where one was expected, or a finite value the documented check refuses.
 *
 * @example
 * await classifyOutcome(rejects('masks', 'keyLength 0', 'InvalidArgumentError', /keyLength/, run), { threw: new TypeError('x') });
 * // { outcome: 'crash', detail: 'expected InvalidArgumentError /keyLength/; got TypeError: x' }
 */
export async function classifyOutcome(testCase: CatalogueCase, ending: CaseEnding): Promise<{ outcome: Outcome; detail: string }> {
  if ('hung' in ending) return { outcome: 'hang', detail: `still running after the ${ending.hung / 1000} s watchdog` };
  if (testCase.error !== undefined) {
    const { name, message } = testCase.error;
    const expected = `expected ${name} ${typeof message === 'string' ? JSON.stringify(message) : String(message)}`;
    if ('returned' in ending) return { outcome: 'silent wrong', detail: `${expected}; no error, returned ${show(ending.returned)}` };
    const error = ending.threw;
    const typed = error instanceof AttnkitError && (name === 'AttnkitError' || error.name === name);
    const said = typed && (typeof message === 'string' ? error.message === message : message.test(error.message));
    return typed && said ? { outcome: 'typed error', detail: '' } : { outcome: 'crash', detail: `${expected}; got ${describeError(error)}` };
  }
  const safe = testCase.safe!;
  if ('threw' in ending) return { outcome: 'crash', detail: `documented result: ${safe.result}; threw ${describeError(ending.threw)}` };
  const value = ending.returned;
  const nonFinite = safe.nonFinite === true ? undefined : findNonFinite(value);
  if (nonFinite !== undefined) return { outcome: 'garbage', detail: `documented result: ${safe.result}; ${nonFinite.value} at value${nonFinite.path} in ${show(value)}` };
  let ok: boolean;
  try {
    ok = await safe.check(value);
  } catch (error) {
    return { outcome: 'silent wrong', detail: `documented result: ${safe.result}; the check could not read ${show(value)} (${describeError(error)})` };
  }
  return ok ? { outcome: 'documented result', detail: '' } : { outcome: 'silent wrong', detail: `documented result: ${safe.result}; got ${show(value)}` };
}
