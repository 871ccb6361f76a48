import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/**
 * A 32-bit hash of `text` under `seed` (FNV-1a over the UTF-16 code units from a seed-dependent
 * start, then MurmurHash3's finaliser to spread the bits): the same text and seed give the same
 * number on every platform, so what is decided by it (a split, a sample) does not depend on input
 * order. Not cryptographic.
 *
 * @example
 * seededHash('n02086723', 0) / 2 ** 32; // a fixed number in [0, 1)
 */
export function seededHash(text: string, seed: number): number {
  if (typeof text !== 'string') throw new InvalidArgumentError({ caller: 'seededHash', argument: 'text', expected: 'a string to hash', received: describeValue(text) });
  if (!Number.isInteger(seed)) throw new InvalidArgumentError({ caller: 'seededHash', argument: 'seed', expected: 'an integer', received: describeValue(seed) });
  let h = (0x811c9dc5 ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h >>> 0);
}

/** murmur3's 32-bit finaliser: spreads every input bit over the output. */
export function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
