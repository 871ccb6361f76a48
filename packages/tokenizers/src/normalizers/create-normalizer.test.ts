import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { createNormalizer } from './create-normalizer.js';

const normalizer = (json: Record<string, unknown>) => createNormalizer(ComponentConfig.of(json, 'normalizer', 'Tokenizer'));

describe('createNormalizer', () => {
  // references: tokenizers 0.23 normalizers.<Type>(...).normalize_str
  it('builds each normalizer type as the library runs it', () => {
    expect(normalizer({ type: 'StripAccents' })('cafe\u0301 \u0903x')).toBe('cafe x');
    expect(normalizer({ type: 'Replace', pattern: { String: 'is' }, content: 'IS$1' })('this is')).toBe('thIS$1 IS$1'); // literal content
    expect(normalizer({ type: 'Replace', pattern: { Regex: '\\s+' }, content: '_' })('a  b\u3000c')).toBe('a_b_c');
    expect([normalizer({ type: 'Prepend', prepend: '▁' })('hi'), normalizer({ type: 'Prepend', prepend: '▁' })('')]).toEqual(['▁hi', '']);
    expect(normalizer({ type: 'ByteLevel' })('Hello 我')).toBe('HelloĠæĪĳ');
    expect(normalizer({ type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }, { type: 'Lowercase' }] })('Éa')).toBe('ea');
  });

  it("knows how much of the output is aligned with the text's first character (the library's alignments, read with PreTokenizedString.get_splits)", () => {
    const cases: [Record<string, unknown>, string, number][] = [
      [{ type: 'Strip', strip_left: true, strip_right: true }, '  ab', 0],
      [{ type: 'Strip', strip_left: true, strip_right: true }, 'ab', 1],
      [{ type: 'Prepend', prepend: 'xy' }, 'ab', 3],
      [{ type: 'NFD' }, 'éa', 2],
      [{ type: 'NFKC' }, 'ﬁx', 2],
      [{ type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true }, '東京', 3],
      [{ type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true }, '\u0001ab', 0],
      [{ type: 'Replace', pattern: { String: ' ' }, content: '__' }, ' ab', 2],
      [{ type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }, '  ab', 0],
      [{ type: 'Replace', pattern: { String: ' ' }, content: '' }, ' ab', 0],
      [{ type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }] }, 'éa', 1],
      [{ type: 'Sequence', normalizers: [{ type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true }, { type: 'Strip', strip_left: true, strip_right: true }] }, '東京', 2],
    ];
    for (const [json, text, expected] of cases) expect(normalizer(json).fromStart(text, 1), `${json['type'] as string} ${text}`).toBe(expected);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ type: 'Unheard' }, `Tokenizer: 'tokenizer.json normalizer.type' must be one of "BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Strip", "StripAccents", "Replace", "Prepend", "Nmt", "Precompiled", "ByteLevel", "Sequence" (the normalizer types attnkit runs exactly as the tokenizers library); received "Unheard".`],
    [{ type: 'Strip', strip_left: true }, "Tokenizer: 'tokenizer.json normalizer.strip_right (Strip)' must be a boolean; received undefined."],
    [{ type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, lowercase: 'yes' }, `Tokenizer: 'tokenizer.json normalizer.lowercase (BertNormalizer)' must be a boolean; received "yes".`],
    [{ type: 'Replace', pattern: { String: '' }, content: 'x' }, `Tokenizer: 'tokenizer.json normalizer.pattern (Replace)' must be a non-empty pattern (what the tokenizers library does with an empty one is not reproduced); received {"String":""}.`],
    [{ type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Precompiled', precompiled_charsmap: 'not base64!' }] }, `Tokenizer: 'tokenizer.json normalizer.normalizers[1].precompiled_charsmap (Precompiled)' must be base64 text; received 11 characters that are not base64.`],
  ])('refuses %j by name', (json, message) => {
    const error = thrown(() => normalizer(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
