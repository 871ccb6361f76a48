import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lowercaseTokenizerJson } from './lowercase-tokenizer-json.js';
import { Tokenizer } from '../tokenizer.js';

const json = JSON.parse(readFileSync(new URL('../../../../tooling/reference/fixtures/families/roberta/tokenizer.json', import.meta.url), 'utf8')) as Record<string, unknown>;

describe('lowercaseTokenizerJson', () => {
  it('puts a Lowercase normalizer first, so text lowercases but special tokens written in it are still found', () => {
    const lowered = new Tokenizer(lowercaseTokenizerJson(json));
    const plain = new Tokenizer(json);
    expect(lowered.tokenize('Hello WORLD')).toEqual(plain.tokenize('hello world'));
    expect(lowered.encode(['<mask> Hello']).tokens[0]).toContain('<mask>');
  });

  it('leaves a tokenizer that already lowercases as it is', () => {
    const bert = { normalizer: { type: 'BertNormalizer', lowercase: true } };
    expect(lowercaseTokenizerJson(bert)).toBe(bert);
    const nested = { normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Lowercase' }] } };
    expect(lowercaseTokenizerJson(nested)).toBe(nested);
    expect(lowercaseTokenizerJson({ normalizer: { type: 'NFC' } })).toEqual({ normalizer: { type: 'Sequence', normalizers: [{ type: 'Lowercase' }, { type: 'NFC' }] } });
  });
});
