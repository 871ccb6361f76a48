import { checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { regexHazard } from './regex-hazard.js';

const COMPONENTS = ['normalizer', 'pre_tokenizer', 'decoder', 'post_processor'] as const;
const MAX_DEPTH = 8;

/**
 * Throws an {@link InvalidArgumentError} when `pattern`, compiled from the tokenizer.json
 * `component` (`'pre_tokenizer'`, `'normalizer'`, `'decoder'`), can backtrack catastrophically
 * (see {@link regexHazard}); the message names the component, the pattern (at most 200 characters)
 * and the reason.
 *
 * @example
 * checkTokenizerPattern(/(a+)+/gu, 'pre_tokenizer', 'Tokenizer'); // throws: nested quantifier
 */
export function checkTokenizerPattern(pattern: RegExp, component: string, caller: string): void {
  const who = typeof caller === 'string' && caller !== '' ? caller : 'checkTokenizerPattern';
  if (!(pattern instanceof RegExp)) throw new InvalidArgumentError({ caller: who, argument: 'pattern', expected: 'a RegExp', received: describeValue(pattern) });
  if (typeof component !== 'string') throw new InvalidArgumentError({ caller: who, argument: 'component', expected: "a tokenizer.json component name such as 'pre_tokenizer'", received: describeValue(component) });
  const hazard = regexHazard(pattern.source);
  if (hazard === undefined) return;
  const shown = pattern.source.length > 200 ? `${pattern.source.slice(0, 200)}… (${pattern.source.length} characters)` : pattern.source;
  throw new InvalidArgumentError({ caller, argument: `tokenizer.json ${component} pattern`, expected: 'a regular expression that cannot backtrack catastrophically', received: `/${shown}/: ${hazard}` });
}

/**
 * Refuses a tokenizer whose regular expressions can backtrack catastrophically (see
 * {@link regexHazard}), before any text is encoded: a `tokenizer.json` can carry patterns (Split
 * pre-tokenizers, Replace normalizers and decoders), and one bad pattern can stall encoding for
 * minutes. It checks what `@huggingface/tokenizers` really compiled (after it rewrote the file's
 * Oniguruma syntax), walking each component of the built tokenizer. The error names the component,
 * the pattern (at most 200 characters) and the reason. (`Tokenizer` checks each pattern as it
 * compiles it, with {@link checkTokenizerPattern}; this is for tokenizers built with that library.)
 *
 * @example
 * checkTokenizerRegexes(new HfTokenizer(json, config), 'Tokenizer'); // InvalidArgumentError for a Split on "(a+)+$"
 */
export function checkTokenizerRegexes(tokenizer: object, caller: string): void {
  checkObject(tokenizer, { caller: typeof caller === 'string' ? caller : 'checkTokenizerRegexes', argument: 'tokenizer', expected: 'a built tokenizer (@huggingface/tokenizers)' });
  const seen = new Set<unknown>();
  const walk = (value: unknown, component: string, depth: number): void => {
    if (value instanceof RegExp) return checkTokenizerPattern(value, component, caller);
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || depth > MAX_DEPTH || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value) && value.length > 1000) return; // vocabularies and charsmaps hold no patterns
    for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], component, depth + 1);
  };
  for (const component of COMPONENTS) walk((tokenizer as Record<string, unknown>)[component], component, 0);
}
