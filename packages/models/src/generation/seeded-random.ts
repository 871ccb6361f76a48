import { checkInteger } from '@attnkit/errors';

/**
 * A seeded source of uniform numbers in `[0, 1)` for sampling: xoshiro128** (state from splitmix32 of
 * the seed), 53 random bits per number. The same seed gives the same sequence on every engine, so
 * `generate` with a seed samples the same tokens from the same logits.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // 0.7207...
 */
export function seededRandom(seed: number): () => number {
  checkInteger(seed, { caller: 'seededRandom', argument: 'seed', min: 0, max: 2 ** 53 - 1 });
  let x = (seed % 2 ** 32) ^ Math.floor(seed / 2 ** 32);
  const splitmix = (): number => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = Uint32Array.of(splitmix(), splitmix(), splitmix(), splitmix());
  const next = (): number => {
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
    const t = s[1]! << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  };
  return () => ((next() >>> 5) * 2 ** 26 + (next() >>> 6)) / 2 ** 53; // 27 + 26 bits, as a 53-bit double
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
