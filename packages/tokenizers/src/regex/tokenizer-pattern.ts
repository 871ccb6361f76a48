import * as huggingface from '@huggingface/tokenizers';
import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import { checkTokenizerPattern } from './check-tokenizer-regexes.js';

/** The library's Split pre-tokenizer, which compiles patterns (its type declarations' `export *` does not resolve under NodeNext, so it is typed here). */
const { SplitPreTokenizer } = huggingface as unknown as { SplitPreTokenizer: new (config: object) => { pattern: RegExp | null } };

/**
 * The `pattern` of a Split pre-tokenizer or a Replace normalizer or decoder as a global JavaScript
 * RegExp: `{"String": s}` matches `s` literally; `{"Regex": r}` is Oniguruma syntax (what the Rust
 * library compiles), rewritten to JavaScript by `@huggingface/tokenizers` (`\s` as White_Space,
 * inline `(?i:...)`, possessive quantifiers, POSIX classes, ...). The compiled pattern must not
 * backtrack catastrophically ({@link checkTokenizerPattern}); one that cannot be rewritten, or an
 * empty one (where the library's matching of empty strings is not reproduced), is a typed error
 * naming its place in the file.
 *
 * @example
 * tokenizerPattern(ComponentConfig.of({ type: 'Split', pattern: { Regex: '\\s+' } }, 'pre_tokenizer', 'Tokenizer')); // /\p{White_Space}+/gu
 */
export function tokenizerPattern(config: ComponentConfig): RegExp {
  const pattern = config.record('pattern');
  const keys = Object.keys(pattern);
  const [kind] = keys;
  const source = kind === undefined ? undefined : pattern[kind];
  if (keys.length !== 1 || (kind !== 'String' && kind !== 'Regex') || typeof source !== 'string') config.fail('pattern', '{"String": text} or {"Regex": pattern}', pattern);
  if (source === '') config.fail('pattern', 'a non-empty pattern (what the tokenizers library does with an empty one is not reproduced)', pattern);
  let compiled: RegExp | null;
  try {
    compiled = new SplitPreTokenizer({ type: 'Split', pattern: kind === 'String' ? { String: source } : { Regex: source }, behavior: 'Isolated', invert: true }).pattern;
  } catch (error) {
    return config.fail('pattern', 'an Oniguruma pattern that can be rewritten as a JavaScript regular expression', pattern, `(${(error as Error).message})`);
  }
  if (compiled === null) return config.fail('pattern', '{"String": text} or {"Regex": pattern}', pattern);
  checkTokenizerPattern(compiled, config.place.split('.')[0] ?? config.place, config.caller);
  return compiled;
}
