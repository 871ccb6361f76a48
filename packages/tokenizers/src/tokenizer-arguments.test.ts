import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { renderChatTemplate } from './chat/render-chat-template.js';
import { loadTokenizer } from './load-tokenizer.js';
import { Tokenizer } from './tokenizer.js';
import { checkTokenizerJson } from './tokenizer-json/check-tokenizer-json.js';
import { tokenizerJsonFromVocab } from './tokenizer-json/vocab-tokenizer-json.js';

const folder = decodeURIComponent(new URL('../../models/assets/attnkit-tiny-bert/', import.meta.url).pathname);
const json = JSON.parse(readFileSync(`${folder}tokenizer.json`, 'utf8')) as Record<string, unknown>;
const tokenizer = new Tokenizer(json);
const VOCAB = '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n';
const refusal = (fn: () => unknown) => {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(InvalidArgumentError);
  return error.message;
};

describe('the tokenizer checks every argument', () => {
  it('refuses a tokenizer_config or files that are not objects', () => {
    expect(refusal(() => new Tokenizer(json, null as never))).toMatch(/^Tokenizer: 'tokenizerConfig' must be a parsed tokenizer_config\.json object; received null/);
    expect(refusal(() => new Tokenizer(json, {}, 'x' as never))).toMatch(/^Tokenizer: 'files' must be an object \{ chatTemplate\? \}; received/);
  });

  it('refuses a token that is no string, an id that is no integer, and holes in decode ids', () => {
    expect(refusal(() => tokenizer.tokenToId(null as never))).toMatch(/^Tokenizer\.tokenToId: 'token' must be a token string; received null/);
    expect(refusal(() => tokenizer.idToToken(NaN))).toMatch(/^Tokenizer\.idToToken: 'id' must be an integer token id; received number NaN/);
    expect(refusal(() => tokenizer.decode([101, , 102] as never))).toMatch(/^Tokenizer\.decode: 'ids' must be a list of integer token ids/); // eslint-disable-line no-sparse-arrays
    expect(tokenizer.tokenToId('[CLS]')).toBe(101);
    expect(tokenizer.idToToken(101)).toBe('[CLS]');
  });

  it('refuses a non-boolean lowercase in loadTokenizer and bad options of tokenizerJsonFromVocab', async () => {
    await expect(loadTokenizer(folder, { lowercase: 'x' as never })).rejects.toThrow(/^loadTokenizer: 'lowercase' must be true or false; received string 'x'/);
    expect(refusal(() => tokenizerJsonFromVocab(VOCAB, { lowercase: null as never }))).toMatch(/^tokenizerJsonFromVocab: 'lowercase' must be true or false/);
    expect(refusal(() => tokenizerJsonFromVocab(VOCAB, { handleChineseChars: 1 as never }))).toMatch(/^tokenizerJsonFromVocab: 'handleChineseChars' must be true or false/);
    expect(refusal(() => tokenizerJsonFromVocab(VOCAB, { stripAccent: true } as never))).toMatch(/^tokenizerJsonFromVocab: 'options' /);
    expect(tokenizerJsonFromVocab(VOCAB, { stripAccents: null })['normalizer']).toMatchObject({ strip_accents: null });
  });

  it('refuses a tensor as template variables and a caller that is no string', () => {
    const tensorLike = { dataId: {}, dtype: 'float32', shape: [1], rank: 1, size: 1, dataSync: () => new Float32Array(1), dispose: () => undefined };
    expect(refusal(() => renderChatTemplate('{{ 1 }}', [{ role: 'user', content: 'hi' }], { variables: tensorLike as never }))).toMatch(/'variables' must be an object of template variables/);
    expect(refusal(() => checkTokenizerJson(json, null as never))).toMatch(/^checkTokenizerJson: 'caller' must be the name of the calling function/);
  });

  it('refuses an id that is not an integer in isByteToken and a token that is not a string in isSpecialToken', () => {
    expect(refusal(() => tokenizer.isByteToken('x' as never))).toBe("Tokenizer.isByteToken: 'id' must be an integer token id; received string 'x'.");
    expect(refusal(() => tokenizer.isSpecialToken(101 as never))).toMatch(/^Tokenizer\.isSpecialToken: 'token' must be a token string/);
    expect([tokenizer.isByteToken(101), tokenizer.isSpecialToken('[CLS]'), tokenizer.isSpecialToken('x')]).toEqual([false, true, false]);
  });
});
