import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { checkTokenizerRegexes } from './check-tokenizer-regexes.js';

const LLAMA3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const build = (parts: Record<string, unknown>) => new HfTokenizer({ normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [], model: { type: 'WordPiece', unk_token: '[UNK]', vocab: { '[UNK]': 0 } }, ...parts }, {});
const split = (pattern: string) => ({ type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false });
const replace = (pattern: string) => ({ type: 'Replace', pattern: { Regex: pattern }, content: ' ' });
const check = (parts: Record<string, unknown>) => () => checkTokenizerRegexes(build(parts), 'Tokenizer');

describe('checkTokenizerRegexes', () => {
  it('accepts the patterns of published tokenizers and the built-in pre-tokenizers', () => {
    expect(check({ pre_tokenizer: { type: 'Sequence', pretokenizers: [split(LLAMA3), { type: 'ByteLevel', add_prefix_space: false, use_regex: false }] } })).not.toThrow();
    expect(check({ pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true, use_regex: true }, normalizer: replace(' {2,}') })).not.toThrow();
    expect(check({ pre_tokenizer: { type: 'BertPreTokenizer' }, decoder: { type: 'WordPiece', prefix: '##' } })).not.toThrow();
    expect(check({ pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Whitespace' }, { type: 'Digits', individual_digits: true }, { type: 'Punctuation' }] } })).not.toThrow();
  });

  it('refuses a bomb in a Split, in a Replace normalizer inside a Sequence, and in a Replace decoder', () => {
    expect(check({ pre_tokenizer: split('(a+)+$') })).toThrow(InvalidArgumentError);
    expect(check({ pre_tokenizer: split('(a+)+') })).toThrow("Tokenizer: 'tokenizer.json pre_tokenizer pattern' must be a regular expression that cannot backtrack catastrophically; received /(a+)+/: nested quantifier: a repeated group holds a repetition.");
    expect(check({ pre_tokenizer: split('(a+)+$') })).toThrow(/received \/\(a\+\)\+\(\?:.*\/: nested quantifier/); // the library rewrites Oniguruma's $
    expect(check({ normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, replace('(a|aa)*b')] } })).toThrow(/'tokenizer\.json normalizer pattern' .* received \/\(a\|aa\)\*b\/: quantified alternation/);
    expect(check({ decoder: { type: 'Sequence', decoders: [replace('x*x*x*y')] } })).toThrow(/'tokenizer\.json decoder pattern' .*: unbounded quantifiers/);
  });

  it('keeps the message short for a long pattern', () => {
    let message = '';
    try { checkTokenizerRegexes(build({ pre_tokenizer: split(`${'b'.repeat(5000)}(a+)+`) }), 'Tokenizer'); } catch (error) { message = (error as Error).message; }
    expect(message).toMatch(/… \(5005 characters\)\/: nested quantifier/);
    expect(message.length).toBeLessThan(500); // 200 characters of the pattern, not 5005
  });
});
