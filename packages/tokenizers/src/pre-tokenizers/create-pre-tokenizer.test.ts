import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { createPreTokenizer } from './create-pre-tokenizer.js';

const pieces = (json: Record<string, unknown>, text: string) => createPreTokenizer(ComponentConfig.of(json, 'pre_tokenizer', 'Tokenizer'))([{ text, fromStart: 1 }]).map((p) => p.text);

describe('createPreTokenizer', () => {
  // references: tokenizers 0.23 pre_tokenizers.<Type>(...).pre_tokenize_str
  it('builds each pre-tokenizer type as the library runs it', () => {
    expect(pieces({ type: 'Whitespace' }, 'héllo, wörld!! a_b')).toEqual(['héllo', ',', 'wörld', '!!', 'a_b']);
    expect(pieces({ type: 'BertPreTokenizer' }, 'Hi, there! a\u2e43b a$b')).toEqual(['Hi', ',', 'there', '!', 'a\u2e43b', 'a', '$', 'b']);
    expect(pieces({ type: 'Digits', individual_digits: false }, 'a123b²½c')).toEqual(['a', '123', 'b', '²½', 'c']);
    expect(pieces({ type: 'Digits', individual_digits: true }, 'a12b')).toEqual(['a', '1', '2', 'b']);
    expect(pieces({ type: 'Punctuation' }, 'a!!b')).toEqual(['a', '!', '!', 'b']);
    expect(pieces({ type: 'Punctuation', behavior: 'Contiguous' }, 'a!!b')).toEqual(['a', '!!', 'b']);
    expect(pieces({ type: 'FixedLength', length: 2 }, 'ab🙂cde')).toEqual(['ab', '🙂c', 'de']);
    expect(pieces({ type: 'CharDelimiterSplit', delimiter: '-' }, 'a-b--c')).toEqual(['a', 'b', 'c']);
    expect(pieces({ type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Punctuation' }] }, 'a, b')).toEqual(['a', ',', 'b']);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ type: 'Replace', pattern: { String: ' ' }, content: '_' }, `Tokenizer: 'tokenizer.json pre_tokenizer.type' must be one of "BertPreTokenizer", "ByteLevel", "Whitespace", "WhitespaceSplit", "Metaspace", "CharDelimiterSplit", "Split", "Punctuation", "Digits", "UnicodeScripts", "FixedLength", "Sequence" (the pre-tokenizer types attnkit runs exactly as the tokenizers library); received "Replace".`],
    [{ type: 'FixedLength', length: 0 }, "Tokenizer: 'tokenizer.json pre_tokenizer.length (FixedLength)' must be an integer from 1 to 2147483647; received 0."],
    [{ type: 'Metaspace', replacement: '▁', add_prefix_space: false }, `Tokenizer: 'tokenizer.json pre_tokenizer.add_prefix_space (Metaspace)' must be true or absent with prepend_scheme "always" (the tokenizers library refuses the mismatch; an absent prepend_scheme is "always"); received false.`],
    [{ type: 'Split', pattern: { Regex: '(' }, behavior: 'Isolated', invert: false }, `Tokenizer: 'tokenizer.json pre_tokenizer.pattern (Split)' must be an Oniguruma pattern that can be rewritten as a JavaScript regular expression; received {"Regex":"("}. (`],
    [{ type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: '(a+)+' }, behavior: 'Isolated', invert: false }] }, "Tokenizer: 'tokenizer.json pre_tokenizer pattern' must be a regular expression that cannot backtrack catastrophically; received /(a+)+/: nested quantifier: a repeated group holds a repetition."],
  ])('refuses %j by name', (json, message) => {
    const error = thrown(() => pieces(json, 'a'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (message.endsWith('(')) expect(error.message.startsWith(message)).toBe(true); // then the engine's own words
    else expect(error.message).toBe(message);
  });
});
