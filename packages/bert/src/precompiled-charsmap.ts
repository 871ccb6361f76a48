import { InvalidArgumentError } from '@attnkit/errors';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function fail(expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'precompiledNormalizer', argument: 'precompiled_charsmap', expected, received });
}

/** Code point at `i`, a lone surrogate read as U+FFFD (as UTF-8 encoding does). */
function codePointAt(text: string, i: number): number {
  const cp = text.codePointAt(i) ?? 0xfffd;
  return cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp;
}

const utf8Length = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** A darts-clone unit's child offset. */
const offsetOf = (unit: number) => (unit >>> 10) << ((unit & 0x200) >>> 6);

/**
 * The `Precompiled` normalizer of a SentencePiece `tokenizer.json`, as the Rust `tokenizers` crate
 * (spm_precompiled) runs it: the charsmap is a u32 trie size, a darts-clone double-array trie over
 * UTF-8 bytes and the NUL-terminated replacements. Each grapheme cluster under 6 UTF-8 bytes is
 * looked up whole (the first, shortest key that is a prefix of it wins); otherwise, or when that
 * finds nothing, each code point is looked up alone and kept as is when absent.
 *
 * @example
 * const normalize = precompiledNormalizer(tokenizerJson.normalizer.precompiled_charsmap);
 * normalize('ＡＢＣ ｶﾞ ﬁ'); // 'ABC ガ fi'
 */
export function precompiledNormalizer(charsmapBase64: string): (text: string) => string {
  let blob: Uint8Array;
  try {
    blob = Uint8Array.from(atob(charsmapBase64), (c) => c.charCodeAt(0));
  } catch {
    return fail('base64 text', `${charsmapBase64.length} characters that are not base64`);
  }
  if (blob.length < 4) fail('at least 4 bytes (the trie size)', `${blob.length} bytes`);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const trieBytes = view.getUint32(0, true);
  const count = Math.floor(trieBytes / 4);
  if (count === 0 || 4 + count * 4 > blob.length) fail(`a trie size from 4 to ${blob.length - 4} bytes`, `${trieBytes}`);
  const units = new Uint32Array(count);
  for (let i = 0; i < count; i++) units[i] = view.getUint32(4 + i * 4, true);
  const strings = blob.subarray(4 + count * 4);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(strings);
  } catch {
    fail('replacement strings in UTF-8', 'bytes that are not UTF-8');
  }
  // Every child block must lie inside the trie and every leaf must start a replacement.
  for (let i = 0; i < count; i++) {
    const unit = units[i] ?? 0;
    if (unit >= 0x80000000) continue; // a leaf's value unit
    const child = i ^ offsetOf(unit);
    const value = (units[child] ?? 0) & 0x7fffffff;
    if (child >= count) fail(`trie offsets below ${count}`, `offset ${child} at unit ${i}`);
    if (unit & 0x100 && (value > strings.length || ((strings[value] ?? 0) & 0xc0) === 0x80)) fail(`replacement offsets up to ${strings.length}`, `${value} at unit ${i}`);
  }
  const replacements = new Map<number, string>();
  const replacement = (at: number): string => {
    let text = replacements.get(at);
    if (text === undefined) {
      const end = strings.indexOf(0, at);
      text = decoder.decode(strings.subarray(at, end < 0 ? strings.length : end));
      replacements.set(at, text);
    }
    return text;
  };

  /** The first leaf on the trie path of the UTF-8 bytes of `text[start, end)`, or -1 (spm_precompiled's `results[0]`). */
  const lookup = (text: string, start: number, end: number): number => {
    let node = offsetOf(units[0] ?? 0);
    for (let i = start; i < end; ) {
      const cp = codePointAt(text, i);
      i += cp > 0xffff ? 2 : 1;
      const n = utf8Length(cp);
      for (let k = n - 1; k >= 0; k--) {
        const byte = n === 1 ? cp : k === n - 1 ? ((0xff00 >> n) & 0xff) | (cp >> (6 * k)) : 0x80 | ((cp >> (6 * k)) & 0x3f);
        if (byte === 0) return -1;
        node ^= byte;
        const unit = units[node] ?? 0;
        if ((unit & 0x800000ff) !== byte) return -1;
        node ^= offsetOf(unit);
        if (unit & 0x100) return (units[node] ?? 0) & 0x7fffffff;
      }
    }
    return -1;
  };

  return (text) => {
    let out = '';
    for (const { segment } of graphemes.segment(text)) {
      let bytes = 0;
      for (let i = 0; i < segment.length && bytes < 6; ) {
        const cp = codePointAt(segment, i);
        bytes += utf8Length(cp);
        i += cp > 0xffff ? 2 : 1;
      }
      const whole = bytes < 6 ? lookup(segment, 0, segment.length) : -1;
      if (whole >= 0) {
        out += replacement(whole);
        continue;
      }
      for (let i = 0; i < segment.length; ) {
        const width = codePointAt(segment, i) > 0xffff ? 2 : 1;
        const found = lookup(segment, i, i + width);
        out += found >= 0 ? replacement(found) : segment.slice(i, i + width);
        i += width;
      }
    }
    return out;
  };
}
