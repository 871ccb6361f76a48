import { callerPath } from '../caller-path.js';
import type { CliOption, Refuse } from './cli-option.js';

/** What every option says about itself: its name, help line and default in words. */
export interface OptionText {
  /** The long name without its dashes. */
  readonly name: string;
  readonly help: string;
  /** What applies without the option, in words. */
  readonly default?: string;
  /** A one-letter alias. */
  readonly short?: string;
}

/**
 * A switch such as `--json`: `true` when given, `false` when not; it takes no value
 * (`--json=false` is a usage error).
 *
 * @example
 * const normalize = switchOption({ name: 'normalize', help: 'scale the vectors to unit length', default: 'off' });
 */
export function switchOption(text: OptionText): CliOption<boolean> {
  return { ...text, placeholder: undefined, multiple: false, read: (given) => given === true };
}

/**
 * An option with one value (`--model DIR`); given twice, the last one counts. `parse` gets the text
 * (`undefined` when absent) and returns the value, the default, or calls `refuse(expected, received)`.
 *
 * @example
 * const model = valueOption({ name: 'model', placeholder: 'DIR', help: 'a model folder', parse: (value) => value ?? 'embedded' });
 */
export function valueOption<T>(spec: OptionText & { readonly placeholder: string; readonly parse: (value: string | undefined, refuse: Refuse) => T }): CliOption<T> {
  const { parse, ...text } = spec;
  return { ...text, multiple: false, read: (given, refuse) => parse(given as string | undefined, refuse) };
}

/**
 * An option that may be given again and again (`--text "a" --text "b"`): `parse` gets every value,
 * in order (none: `[]`).
 *
 * @example
 * const texts = repeatedOption({ name: 'text', placeholder: '"..."', help: 'a text; repeat for more', parse: (values) => values });
 */
export function repeatedOption<T>(spec: OptionText & { readonly placeholder: string; readonly parse: (values: readonly string[], refuse: Refuse) => T }): CliOption<T> {
  const { parse, ...text } = spec;
  return { ...text, multiple: true, read: (given, refuse) => parse((given as string[] | undefined) ?? [], refuse) };
}

/**
 * A file or folder (`--output out.json`), resolved against the directory the command runs in
 * (`callerPath`: URLs and absolute paths are kept); `undefined` when absent.
 *
 * @example
 * const output = pathOption({ name: 'output', placeholder: 'out.json', help: 'write the JSON there' });
 */
export function pathOption(spec: OptionText & { readonly placeholder: string }): CliOption<string | undefined> {
  return valueOption({ ...spec, parse: (value) => (value === undefined ? undefined : callerPath(value)) });
}

/** The bounds (inclusive) of a {@link wholeNumberOption}, and its value when absent. */
export interface WholeNumberSpec extends OptionText {
  readonly min: number;
  readonly max: number;
  /** The value without the option; help shows it as the default. Without one, the value is `undefined`. */
  readonly fallback?: number;
}

/**
 * `--runs N`: decimal digits only (no sign, exponent, fraction or spaces), from `min` to `max`;
 * anything else is refused as `a whole number from 1 to 1000; received "many"`.
 *
 * @example
 * const runs = wholeNumberOption({ name: 'runs', help: 'warm runs', min: 1, max: 1000, fallback: 5 }); // help: '--runs N  warm runs (default: 5)'
 */
export function wholeNumberOption(spec: WholeNumberSpec & { readonly fallback: number }): CliOption<number>;
export function wholeNumberOption(spec: WholeNumberSpec): CliOption<number | undefined>;
export function wholeNumberOption(spec: WholeNumberSpec): CliOption<number | undefined> {
  const { min, max, fallback, ...text } = spec;
  return valueOption({
    ...(fallback === undefined ? {} : { default: String(fallback) }),
    ...text,
    placeholder: 'N',
    parse: (value, refuse) => {
      if (value === undefined) return fallback;
      if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) refuse(`a whole number from ${min} to ${max}`, JSON.stringify(value));
      return Number(value);
    },
  });
}

/**
 * How a real-number option reads its text (`--learning-rate X`, `--temperature X`): a finite decimal
 * that `check` accepts, else refused as `expected`; `undefined` when absent.
 *
 * @example
 * const topP = valueOption({ name: 'top-p', placeholder: 'X', help: 'nucleus sampling', parse: realNumber((n) => n > 0 && n <= 1, 'a number in (0, 1]') });
 */
export function realNumber(check: (n: number) => boolean, expected: string): (value: string | undefined, refuse: Refuse) => number | undefined {
  return (value, refuse) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    return value.trim() === '' || !Number.isFinite(n) || !check(n) ? refuse(expected, JSON.stringify(value)) : n;
  };
}
