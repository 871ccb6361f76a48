/**
 * Softmax over the last axis (rows of length `width`) in float64, max-subtracted. Positions where
 * `keep` is false are filled with `fill` first, as a masked softmax kernel would be given them.
 *
 * @example
 * softmax64(Float32Array.of(0, 0), 2); // [0.5, 0.5]
 */
export function softmax64(x: ArrayLike<number>, width: number, keep?: ArrayLike<number>, fill = 0): Float64Array {
  const out = new Float64Array(x.length);
  for (let row = 0; row < x.length / width; row++) {
    const at = (j: number): number => {
      const i = row * width + j;
      return keep === undefined || keep[i] ? (x[i] as number) : fill;
    };
    let max = -Infinity;
    for (let j = 0; j < width; j++) max = Math.max(max, at(j));
    let total = 0;
    for (let j = 0; j < width; j++) total += Math.exp(at(j) - max);
    for (let j = 0; j < width; j++) out[row * width + j] = Math.exp(at(j) - max) / total;
  }
  return out;
}
