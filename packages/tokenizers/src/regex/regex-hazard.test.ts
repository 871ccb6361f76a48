import { describe, expect, it } from 'vitest';
import { regexHazard } from './regex-hazard.js';

// Patterns of published tokenizers (as @huggingface/tokenizers compiles them) and classic bombs.
const REAL = [
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+", // GPT-2, RoBERTa
  "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\p{White_Space}\\p{L}\\p{N}]+[\\r\\n]*|\\p{White_Space}*[\\r\\n]+|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+", // Llama 3, cl100k (as the library compiles (?i:...) and \\s)
  "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\p{White_Space}\\p{L}\\p{N}]+[\\r\\n]*|\\p{White_Space}*[\\r\\n]+|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+", // Qwen2
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\p{White_Space}\\p{L}\\p{N}]+[\\r\\n/]*|\\p{White_Space}*[\\r\\n]+|\\p{White_Space}+(?!\\P{White_Space})|\\p{White_Space}+", // o200k (GPT-4o), as the library compiles it
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
  // optional parts in a repeated group: the iterations can share the text in many ways
  ['(?:a?a?){16}x', /^optional part in a repeated group: /], // 163 s on 32 characters in V8
  ['(?:a?){16}x', /^optional part in a repeated group: /],
  ['(?:a?b?)+c', /^optional part in a repeated group: /],
  ['(?:a[ab]?)+$', /^optional part in a repeated group: /], // a|aa again, without the |
  ['(?:x(?:ab)?)*y', /^optional part in a repeated group: /],
  // large counts are unbounded; nested counts are nested quantifiers whatever their size
  ['a{0,99}a{0,99}a{0,99}b', /^unbounded quantifiers: more than two in a row/], // 5 s on 2 000 characters
  ['a{1,1000}a{1,1000}a{1,1000}$', /^unbounded quantifiers: more than two in a row/],
  ['(?:a*)?(?:a*)?(?:a*)?b', /^unbounded quantifiers: more than two in a row/], // optional groups do not hide them
  ['(a{1,50}){1,50}', /^nested quantifier: a repeated group holds a repetition$/],
  ['(?:a{2,3}){2,3}b', /^nested quantifier: a repeated group holds a repetition$/],
  // two unbounded quantifiers before a part that can fail
  ['a*a*b', /^unbounded quantifiers: two in a row before a part that can fail/], // 50 s on 5 000 characters
  ['a{0,99}a{0,99}b', /^unbounded quantifiers: two in a row before a part that can fail/],
  ['a*(?:a*)?b', /^unbounded quantifiers: two in a row before a part that can fail/],
  ['\\s+\\s+$', /^unbounded quantifiers: two in a row before a part that can fail/],
  ['(?=a*a*b)', /^unbounded quantifiers: two in a row before a part that can fail/],
  // choices that multiply before a part that can fail
  [`${'a?'.repeat(16)}x`, /^too many choices in a row: more than 4096 ways/], // 1.8 s on 5 000 characters
  [`${'a{0,10}'.repeat(4)}b`, /^too many choices in a row: more than 4096 ways/],
  ['a?a?a?a*b', /^too many choices in a row: more than 4096 ways/],
  ['(?:a|b|c|d|e)(?:a|b|c|d|e)(?:a|b|c|d|e)(?:a|b|c|d|e)(?:a|b|c|d|e)(?:a|b|c|d|e)x', /^too many choices in a row: more than 4096 ways/],
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
    expect(regexHazard('(?:a?a?){16}x')).toBe('optional part in a repeated group: the repetitions may split the same text in more than one way');
    expect(regexHazard('a{0,99}a{0,99}a{0,99}b')).toBe('unbounded quantifiers: more than two in a row (polynomial backtracking)');
    expect(regexHazard('a*a*b')).toBe('unbounded quantifiers: two in a row before a part that can fail (polynomial backtracking)');
    expect(regexHazard(`${'a?'.repeat(13)}x`)).toBe('too many choices in a row: more than 4096 ways to reach a part that can fail, each tried again when it fails');
  });
  it('treats a count above 10 as unbounded, and an exact count as no choice at all', () => {
    expect([regexHazard('a{0,10}a{0,10}a*'), regexHazard('a{0,11}a{0,11}a{0,11}'), regexHazard('a{20}a{20}a{20}b'), regexHazard('a{5,16}a*a*')]).toEqual([undefined, 'unbounded quantifiers: more than two in a row (polynomial backtracking)', undefined, 'unbounded quantifiers: more than two in a row (polynomial backtracking)']);
  });
  it('accepts two unbounded quantifiers that end the branch or are followed only by optional parts', () => {
    expect([regexHazard('\\s*[\\r\\n]+'), regexHazard('a*a*(?:bc)?'), regexHazard('a*a*b'), regexHazard('a*a*(?:b)')]).toEqual([undefined, undefined, 'unbounded quantifiers: two in a row before a part that can fail (polynomial backtracking)', 'unbounded quantifiers: two in a row before a part that can fail (polynomial backtracking)']);
  });
  // Near the limits. Only the accepted ones are run: a refused one would take seconds to minutes.
  const BORDERLINE = [
    'a*b', 'a?a?a*b', `${'a?'.repeat(12)}x`, 'a{0,10}a{0,10}a{0,10}b', '\\s*[\\r\\n]+', 'a*a*(?:b)?', 'a*a+', '\\d+(?:\\.\\d+)?', 'a{20}a{20}a{20}b', '(?:ab)+c', 'a*(?=b)', 'a{0,10}a+',
    `${'a?'.repeat(13)}x`, 'a?a?a?a*b', `${'a{0,10}'.repeat(4)}b`, 'a*a*b', 'a{0,99}a{0,99}b', '(?:a?a?){16}x', '(?:a[ab]?)+$', 'a{0,10}a*b',
  ];
  it('the borderline patterns it accepts run fast on 5 000 adversarial characters (2 s for all)', () => {
    const accepted = BORDERLINE.filter((pattern) => regexHazard(pattern) === undefined);
    expect(accepted).toEqual(BORDERLINE.slice(0, 12));
    const started = performance.now();
    for (const pattern of accepted) for (const text of [`${'a'.repeat(4999)}!`, `${' '.repeat(4999)}!`]) text.match(new RegExp(pattern, 'gu'));
    const ms = performance.now() - started;
    expect({ fast: ms < 2000, ms: Math.round(ms) }).toMatchObject({ fast: true });
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
