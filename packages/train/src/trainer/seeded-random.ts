import { fmix32 } from '../data/seeded-hash.js';

/**
 * A seeded pseudo-random generator (mulberry32): `seededRandom(seed)` returns a function giving
 * floats in `[0, 1)`, the same sequence for the same seed on every platform. `seed` is any
 * integer; further integers (`seededRandom(seed, epoch)`) derive independent streams.
 *
 * @example
 * const random = seededRandom(42, 0);
 * random(); // 0.9809434993658215, always
 */
export function seededRandom(seed: number, ...stream: readonly number[]): () => number {
  let state = mix(seed >>> 0, 0x9e3779b9);
  for (const value of stream) state = mix(state, value >>> 0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle of a copy of `items`, drawing from `random`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Two 32-bit words hashed into one (murmur3's finaliser on their combination). */
function mix(a: number, b: number): number {
  return fmix32((Math.imul(a ^ 0x85ebca6b, 0xcc9e2d51) + b) >>> 0);
}
