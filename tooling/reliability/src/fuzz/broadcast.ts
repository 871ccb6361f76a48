/** NumPy broadcasting of shapes: the common shape, or `undefined` if they do not broadcast. */
export function broadcastShape(shapes: ReadonlyArray<readonly number[]>): number[] | undefined {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const dims = shapes.map((s) => s[s.length - rank + i] ?? 1);
    const big = dims.find((d) => d !== 1) ?? 1;
    if (dims.some((d) => d !== 1 && d !== big)) return undefined;
    out.push(big);
  }
  return out;
}

/**
 * The element of a row-major tensor (`values`, `shape`) that NumPy broadcasting puts at flat index
 * `at` of a tensor of shape `out` (shapes aligned on the right). The fuzzers' reference for masks.
 *
 * @example
 * broadcastValue([1, 0], [1, 2], [3, 2], 5); // 0 (row 2, column 1)
 */
export function broadcastValue(values: ArrayLike<number>, shape: readonly number[], out: readonly number[], at: number): number {
  let flat = 0;
  let stride = 1;
  let rest = at;
  for (let i = out.length - 1; i >= 0; i--) {
    const index = rest % out[i]!;
    rest = Math.floor(rest / out[i]!);
    const j = shape.length - out.length + i;
    if (j >= 0) {
      flat += (shape[j] === 1 ? 0 : index) * stride;
      stride *= shape[j]!;
    }
  }
  return values[flat]!;
}
