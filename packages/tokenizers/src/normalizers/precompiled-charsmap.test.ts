import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import fixture from '@attnkit/reference/fixtures/charsmap.json' with { type: 'json' };
import { JOINING, PREPENDING, precompiledNormalizer } from './precompiled-charsmap.js';

// Reference outputs of the Rust tokenizers' Precompiled normalizer (tooling/reference/make_charsmap_fixtures.py).
interface CharsmapFixture {
  readonly name: string;
  readonly precompiled_charsmap: string;
  readonly cases: ReadonlyArray<{ readonly text: string; readonly normalized: string }>;
}
const charsmaps = fixture as unknown as readonly CharsmapFixture[];
const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0')).join(' ');

describe.each(charsmaps.map((c) => [c.name, c] as const))('precompiledNormalizer with the %s charsmap', (_name, charsmap) => {
  it(`gives the Rust tokenizers output for all ${charsmap.cases.length} texts`, () => {
    const normalize = precompiledNormalizer(charsmap.precompiled_charsmap);
    const wrong = charsmap.cases.filter(({ text, normalized }) => normalize(text) !== normalized);
    const report = wrong.map(({ text, normalized }) => `[${codePoints(text)}] -> [${codePoints(normalize(text))}], expected [${codePoints(normalized)}]`);
    expect(report).toEqual([]);
    expect(charsmap.cases.length - wrong.length).toBe(charsmap.cases.length);
  });

  it('keeps U+200D ZWJ and does not NFKC-normalize text the map leaves alone', () => {
    const normalize = precompiledNormalizer(charsmap.precompiled_charsmap);
    expect(normalize('a\u200db')).toBe(charsmap.cases.find((c) => c.text === 'a\u200db')?.normalized);
    expect(normalize('a\u200db')).toContain('\u200d');
  });

  it('reads lone surrogates (which Rust strings cannot hold) as U+FFFD', () => {
    const normalize = precompiledNormalizer(charsmap.precompiled_charsmap);
    expect(normalize('\ufffd')).toBe(' ');
    expect(normalize('a\ud800b\udc00\u0301 \ud83d')).toBe(normalize('a\ufffdb\ufffd\u0301 \ufffd'));
  });
});

/** A blob whose trie maps "a" to "b": root -> base 256; node 353 ('a') has a leaf at 97 with value 0. */
function tinyBlob(edit: (units: Uint32Array) => void = () => {}, strings = [0x62, 0]): string {
  const units = new Uint32Array(512);
  units[0] = 256 << 10;
  units[353] = 0x61 | 0x100 | (256 << 10);
  units[97] = 0x80000000;
  edit(units);
  const bytes = new Uint8Array(4 + units.length * 4 + strings.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, units.length * 4, true);
  units.forEach((u, i) => view.setUint32(4 + i * 4, u, true));
  bytes.set(strings, 4 + units.length * 4);
  return btoa(String.fromCharCode(...bytes));
}
const base64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

describe('precompiledNormalizer on hand-made charsmaps', () => {
  it('reads a minimal trie, and looks a short cluster up whole: its first prefix that is a key wins', () => {
    // 'a\u0301' is one cluster of 3 bytes: the trie finds the key 'a' first and the accent goes, as in Rust
    expect(precompiledNormalizer(tinyBlob())('xaya\u0301 a\u0301\u0301\u0301')).toBe('xbyb b\u0301\u0301\u0301');
  });

  it('keeps a byte order mark that starts a replacement', () => {
    expect(precompiledNormalizer(tinyBlob(undefined, [0xef, 0xbb, 0xbf, 0x62, 0]))('a')).toBe('\ufeffb');
  });

  it.each([
    ['not base64', '%%%', /'precompiled_charsmap' must be base64 text; received 3 characters that are not base64\./],
    ['too short', base64([1, 0]), /'precompiled_charsmap' must be at least 4 bytes \(the trie size\); received 2 bytes\./],
    ['an empty trie', base64([0, 0, 0, 0, 0x61]), /must be a trie size from 4 to 1 bytes; received 0\./],
    ['a trie size past the end', base64([0, 1, 0, 0, 1, 2, 3, 4]), /must be a trie size from 4 to 4 bytes; received 256\./],
    ['a child offset past the trie', tinyBlob((u) => (u[353] = 0x61 | 0x100 | (1024 << 10))), /must be trie offsets below 512; received offset 1377 at unit 353\./],
    ['a replacement offset past the strings', tinyBlob((u) => (u[97] = 0x80000000 | 7)), /must be replacement offsets up to 2; received 7 at unit 353\./],
    ['a replacement offset inside a character', tinyBlob((u) => (u[97] = 0x80000001), [0xc3, 0xa9, 0]), /must be replacement offsets up to 3; received 1 at unit 353\./],
    ['replacements that are not UTF-8', tinyBlob(undefined, [0xff, 0]), /must be replacement strings in UTF-8; received bytes that are not UTF-8\./],
  ])('rejects %s', (_what, blob, message) => {
    let error: unknown;
    try {
      precompiledNormalizer(blob);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).message).toMatch(/^precompiledNormalizer: 'precompiled_charsmap' must be /);
    expect((error as InvalidArgumentError).message).toMatch(message);
    expect((error as InvalidArgumentError).argument).toBe('precompiled_charsmap');
  });
});

describe('the fast path of precompiledNormalizer', () => {
  // Text away from joining characters is looked up code point by code point, without Intl.Segmenter:
  // that is exact only if this runtime's segmenter puts a boundary between any two other characters.
  it('agrees with Intl.Segmenter on which characters join a neighbour, for every code point but the unassigned planes 4–13 and private-use planes 15–16', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const joined = (a: string, b: string) => segmenter.segment(a + b).containing(0)!.segment.length > a.length;
    const wrong: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x40000 && cp < 0xe0000) || cp >= 0xf0000) continue;
      const c = String.fromCodePoint(cp);
      if (!JOINING.test(c)) {
        if (joined('a', c) || joined(c, 'a') || joined(c, c) || (cp !== 13 && joined(c, '\n'))) wrong.push(`U+${cp.toString(16)} joins`);
      } else if (joined(c, 'a') && !PREPENDING.test(c)) wrong.push(`U+${cp.toString(16)} prepends`);
    }
    expect(wrong).toEqual([]);
  });
});
