import { InvalidArgumentError, checkInteger, describeValue } from '@attnkit/errors';
/**
 * A kernel's output computed in float64 from the same inputs, with a bound on how far a correct
 * float32 evaluation of the kernel's arithmetic may land from it (max abs error over the output).
 */
export interface Reference64 {
  /** The output, flattened row-major. */
  readonly values: Float64Array;
  /** The largest abs difference float32 rounding allows, from a first-order error analysis of the kernel's steps. */
  readonly float32Bound: number;
}

const UNIT = 2 ** -24; // float32's unit roundoff (round to nearest)

/**
 * What `f32MatMul` computes, in float64: `x · weightᵀ + bias` from the same float32 inputs.
 *
 * The bound: a kernel starts each output at the bias and adds the K products in order in float32
 * (a rounded product then a rounded sum, or one fused multiply-add), so each output is within
 * `γ_{K+1} · (|bias| + Σ |x · w|)` of the float64 value (u = 2⁻²⁴, γₙ = nu / (1 − nu), first-order
 * recursive summation); the bound is the largest over the output.
 *
 * Shapes: `x [N, K]`, `weight [M, K]`, `bias [M]` float32 → `[N, M]`.
 *
 * @example
 * const { values, float32Bound } = f32MatMul64(x, 14, weight, 40, 48, bias);
 */
export function f32MatMul64(x: Float32Array, rows: number, weight: Float32Array, cols: number, depth: number, bias: Float32Array | undefined): Reference64 {
  const caller = 'f32MatMul64';
  for (const [argument, value] of [['rows', rows], ['cols', cols], ['depth', depth]] as const) checkInteger(value, { caller, argument, min: 1 });
  const array = (argument: string, value: unknown, length: number) => {
    if (!(value instanceof Float32Array) || value.length !== length) throw new InvalidArgumentError({ caller, argument, expected: `a Float32Array of ${length} values`, received: describeValue(value) });
  };
  array('x', x, rows * depth);
  array('weight', weight, cols * depth);
  if (bias !== undefined) array('bias', bias, cols);
  const gamma = ((depth + 1) * UNIT) / (1 - (depth + 1) * UNIT);
  const values = new Float64Array(rows * cols);
  let float32Bound = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let sum = bias === undefined ? 0 : (bias[j] as number);
      let magnitude = Math.abs(sum);
      for (let p = 0; p < depth; p++) {
        const product = (x[i * depth + p] as number) * (weight[j * depth + p] as number);
        sum += product;
        magnitude += Math.abs(product);
      }
      values[i * cols + j] = sum;
      float32Bound = Math.max(float32Bound, gamma * magnitude);
    }
  }
  return { values, float32Bound };
}
