import { describe, expect, it } from 'vitest';
import { bertNormalizer } from './bert-normalizer.js';

describe('bertNormalizer', () => {
  // references: tokenizers 0.23 normalizers.BertNormalizer(...).normalize_str
  it('cleans, spaces CJK, strips accents after NFD and lowercases, as the default BertNormalizer', () => {
    const normalize = bertNormalizer({ cleanText: true, handleChineseChars: true, stripAccents: null, lowercase: true });
    expect(normalize('Héllo\t世界\u0000\u0890x')).toBe('hello  世  界 \u0890x'); // U+0890 kept: the library's control table predates it
  });

  it('strips accents without lowercasing when asked', () => {
    const normalize = bertNormalizer({ cleanText: true, handleChineseChars: false, stripAccents: true, lowercase: false });
    expect(normalize('Ça\u2066 va\u200b?')).toBe('Ca va?');
  });
});
