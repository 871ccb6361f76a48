import { describeValue, InvalidArgumentError } from '@attnkit/errors';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PREPEND = String.raw`\u0d4e\u{111c2}\u{111c3}\u{113d1}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}`;
/**
 * Characters that can share a grapheme cluster with a neighbour (Extend, ZWJ, SpacingMark, Prepend,
 * Hangul jamo, regional indicators, ...): between two others there is always a boundary, but in CR LF.
 * Exported for the test that checks this against the runtime's `Intl.Segmenter`.
 */
export const JOINING = new RegExp(String.raw`[^\p{Grapheme_Base}\0-\x1f\x7f-\x9f\u2028\u2029]|[\p{M}\p{Emoji_Modifier}\p{RI}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0e33\u0eb3\u{16d63}\u{16d67}-\u{16d6a}${PREPEND}]`, 'u');
/** Characters that may join the next one (Prepend: format characters and a few letters). */
export const PREPENDING = new RegExp(String.raw`[\p{Cf}${PREPEND}]`, 'u');
const J = `(?:${JOINING.source})`;
const LONE = String.raw`(?:\r\n|(?!${J})[^])`;
/** Runs of joining characters with one neighbour on each side: they start and end on cluster boundaries. */
const JOINED = new RegExp(`${LONE}?${J}+(?:${LONE}${J}+)*${LONE}?`, 'gu');
/**
 * Where a cluster of several code points can be under 6 UTF-8 bytes (the only ones spm_precompiled
 * looks up whole): a joining character next to or at a 1–2 byte one. Elsewhere each code point is looked up alone.
 */
const SHORT_CLUSTER = new RegExp(String.raw`(?=[\0-\u07ff])${J}|[\0-\u07ff]${J}|${PREPENDING.source}[\0-\u07ff]`, 'u');
const WINDOW = 256;

/**
 * The grapheme clusters of `text`. V8's `Intl.Segmenter` slows down quadratically on long strings, so
 * it runs on windows that start on a boundary; a window's last cluster, which may go on past the
 * window, is redone by the next one.
 */
function* clusters(text: string): Generator<string> {
  for (let start = 0, size = WINDOW; start < text.length; ) {
    let end = Math.min(text.length, start + size);
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    let next = start;
    for (const { segment, index } of graphemes.segment(text.slice(start, end))) {
      if (end < text.length && start + index + segment.length === end) break;
      yield segment;
      next = start + index + segment.length;
    }
    size = next === start ? size * 2 : WINDOW;
    start = next;
  }
}

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
  if (typeof charsmapBase64 !== 'string') throw new InvalidArgumentError({ caller: 'precompiledNormalizer', argument: 'charsmapBase64', expected: 'a base64 string (tokenizer.json precompiled_charsmap)', received: describeValue(charsmapBase64) });
  let binary: string;
  try {
    binary = atob(charsmapBase64);
  } catch {
    return fail('base64 text', `${charsmapBase64.length} characters that are not base64`);
  }
  const blob = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) blob[i] = binary.charCodeAt(i);
  if (blob.length < 4) fail('at least 4 bytes (the trie size)', `${blob.length} bytes`);
  const view = new DataView(blob.buffer);
  const count = Math.floor(view.getUint32(0, true) / 4);
  if (count === 0 || 4 + count * 4 > blob.length) fail(`a trie size from 4 to ${blob.length - 4} bytes`, `${view.getUint32(0, true)}`);
  const units = new Uint32Array(count);
  for (let i = 0; i < count; i++) units[i] = view.getUint32(4 + i * 4, true);
  const strings = blob.subarray(4 + count * 4);
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
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

  const cluster = (segment: string): string => {
    let bytes = 0;
    for (let i = 0; i < segment.length && bytes < 6; i += codePointAt(segment, i) > 0xffff ? 2 : 1) bytes += utf8Length(codePointAt(segment, i));
    const whole = bytes < 6 ? lookup(segment, 0, segment.length) : -1;
    if (whole >= 0) return replacement(whole);
    let out = '';
    for (let i = 0; i < segment.length; ) {
      const width = codePointAt(segment, i) > 0xffff ? 2 : 1;
      const found = lookup(segment, i, i + width);
      out += found >= 0 ? replacement(found) : segment.slice(i, i + width);
      i += width;
    }
    return out;
  };
  const ascii = Array.from({ length: 128 }, (_, c) => lookup(String.fromCharCode(c), 0, 1));
  const crlf = cluster('\r\n');
  /** `text[from, to)`, where every cluster is one code point, CR LF or 6 bytes or more. */
  const singles = (text: string, from: number, to: number): string => {
    let out = '';
    for (let i = from; i < to; ) {
      const c = text.charCodeAt(i);
      const width = c === 13 && i + 1 < to && text.charCodeAt(i + 1) === 10 ? 2 : codePointAt(text, i) > 0xffff ? 2 : 1;
      const mapped = c < 128 ? (width === 2 ? crlf : ascii[c]) : lookup(text, i, i + width);
      i += width;
      if (mapped === undefined || mapped === -1) continue;
      out += text.slice(from, i - width) + (typeof mapped === 'string' ? mapped : replacement(mapped));
      from = i;
    }
    return out + text.slice(from, to);
  };

  return (text) => {
    if (!SHORT_CLUSTER.test(text)) return singles(text, 0, text.length);
    let out = '';
    let done = 0;
    for (const { 0: piece, index } of text.matchAll(JOINED)) {
      out += singles(text, done, index);
      if (SHORT_CLUSTER.test(piece)) for (const segment of clusters(piece)) out += cluster(segment);
      else out += singles(piece, 0, piece.length);
      done = index + piece.length;
    }
    return out + singles(text, done, text.length);
  };
}
