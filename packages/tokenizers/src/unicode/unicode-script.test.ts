import { describe, expect, it } from 'vitest';
import { unicodeScript } from './unicode-script.js';

const script = (char: string) => unicodeScript(char.codePointAt(0)!);

describe('unicodeScript', () => {
  // tokenizers 0.23 UnicodeScripts().pre_tokenize_str(' hello мир 東京タワー 한국 x1'): 'hello ', 'мир ', '東京タワー ', '한국 ', 'x', '1'
  it('gives the scripts the UnicodeScripts pre-tokenizer splits on: Hiragana, Katakana and U+30FC as Han, the space as Any (0)', () => {
    expect(script('a')).toBe(script('z'));
    expect(script('a')).not.toBe(script('м'));
    expect(new Set([script('東'), script('タ'), script('ー'), script('ひ')]).size).toBe(1);
    expect(script('한')).not.toBe(script('東'));
    expect(script('1')).not.toBe(script('x'));
    expect([script(' '), script('\u0378'), unicodeScript(0xd800)]).toEqual([0, 0, 0]);
  });
});
