/**
 * Deterministic float32 values in `[low, high)` from a 32-bit seed (mulberry32), so every backend
 * and the float64 reference see bit-identical inputs.
 *
 * @example
 * seededValues(1, 6, -1, 1); // Float32Array(6) [ ... ] — the same on every run and platform
 */
export function seededValues(seed: number, count: number, low = -1, high = 1): Float32Array {
  let state = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out[i] = low + (high - low) * unit;
  }
  return out;
}
