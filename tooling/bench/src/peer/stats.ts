/** Median of a non-empty list (the upper middle for an even count, as bench.ts takes it). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Cosine of two vectors, accumulated in float64. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(aa * bb);
}

/** The smallest cosine of row i of `rows` against row i of `reference`. */
export function minCosine(rows: readonly (readonly number[])[], reference: readonly (readonly number[])[]): number {
  return Math.min(...rows.map((row, i) => cosine(row, reference[i]!)));
}

/** `[N * E]` flat values → N rows of E. */
export function toRows(flat: ArrayLike<number>, rows: number): number[][] {
  const width = flat.length / rows;
  return Array.from({ length: rows }, (_, i) => Array.from({ length: width }, (_, j) => flat[i * width + j]!));
}
