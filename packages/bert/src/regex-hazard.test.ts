import { describe, expect, it } from 'vitest';
import { regexHazard } from './regex-hazard.js';

// Patterns of published tokenizers (as @huggingface/tokenizers compiles them) and classic bombs.
const REAL = [
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+", // GPT-2, RoBERTa
  "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\p{White_Space}\\p{L}\\p{N}]+[\\r\\n]*|\\p{White_Space}*[\\r\\n]+|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+", // Llama 3, cl100k (as the library compiles (?i:...) and \\s)
  "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\p{White_Space}\\p{L}\\p{N}]+[\\r\\n]*|\\p{White_Space}*[\\r\\n]+|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+", // Qwen2
  ' ?[^()|\\p{White_Space}.,!?…。，、।۔،]+', // BLOOM, as the library rewrites it
  '\\p{Script=Han}+', '(?<=a)b|(?<!c)d|(?<name>x)\\k<name>',
  '\\w+|[^\\w\\s]+', '[^\\d]+|\\d+', ' {2,}', '\\s+', '▁', '\\p{N}{1,3}', '[\\p{P}\\p{S}]', '(?:\\r\\n|\\n)', '\\d+(?:\\.\\d+)?', '(a)\\1+', '[(|)]+', 'a{2}b', '\\u{1F600}+',
];
const BOMBS: Array<[string, RegExp]> = [
  ['(a+)+$', /nested quantifier/],
  ['(a*)*', /nested quantifier/],
  ['(?:a+){2,}', /nested quantifier/],
  ['(?<x>a+)+', /nested quantifier/],
  ['((ab)*)+', /nested quantifier/],
  ['(.*a){20}', /nested quantifier/],
  ['(\\w+\\s?)+$', /nested quantifier/],
  ['([a-z]+)*$', /nested quantifier/],
  ['(x+x+)+y', /nested quantifier/],
  ['a**', /cannot be parsed|nested quantifier/],
  ['(a|a)*b', /quantified alternation/],
  ['(a|aa)+$', /quantified alternation/],
  ['(a|b)+', /quantified alternation/],
  ['((a)\\2)+', /backreference/],
  ['a*a*a*b', /unbounded quantifiers/],
  ['a*a*a*a*a*a*b', /unbounded quantifiers/],
  ['(?:a*)(?:a*)(?:a*)b', /unbounded quantifiers/],
  ['(', /cannot be parsed/],
  ['a)', /cannot be parsed/],
  ['[abc', /cannot be parsed/],
];

describe('regexHazard', () => {
  it.each(REAL)('accepts %s', (pattern) => {
    expect(regexHazard(pattern)).toBeUndefined();
  });
  it.each(BOMBS)('refuses %s', (pattern, reason) => {
    expect(regexHazard(pattern)).toMatch(reason);
  });
  it('says why, in words', () => {
    expect(regexHazard('(a+)+$')).toBe('nested quantifier: a repeated group holds a repetition');
    expect(regexHazard('(a|aa)+')).toBe('quantified alternation: a repeated group holds alternatives');
  });
  it('the refused bombs do backtrack: (a+)+$ on 26 characters takes far longer than an accepted pattern on 100 000', () => {
    const t0 = performance.now();
    /(a+)+$/u.test(`${'a'.repeat(22)}!`);
    const bomb = performance.now() - t0;
    const t1 = performance.now();
    for (const pattern of REAL) for (const text of [' '.repeat(25_000), 'a'.repeat(25_000), '!'.repeat(25_000), 'a '.repeat(12_500)]) text.match(new RegExp(pattern, 'gu'));
    const real = performance.now() - t1;
    expect({ real: real < 2000, bomb: bomb > 5, ms: [Math.round(real), Math.round(bomb)] }).toMatchObject({ real: true, bomb: true });
  });
  it('does not overflow on deeply nested groups', () => {
    expect(regexHazard(`${'('.repeat(10_000)}a${')'.repeat(10_000)}`)).toMatch(/cannot be parsed \(groups nested more than 200 deep/);
  });
});
