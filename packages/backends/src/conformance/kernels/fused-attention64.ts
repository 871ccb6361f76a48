import type { Reference64 } from '@attnkit/kernels';

const UNIT = 2 ** -24; // float32's unit roundoff (round to nearest)
const gamma = (n: number): number => (n * UNIT) / (1 - n * UNIT);

/** A rank-4 operand, flat row-major, each dimension 1 (broadcast) or the full size of `[B, H, T, S]`. */
export interface Broadcast4 {
  readonly values: ArrayLike<number>;
  readonly shape: readonly [number, number, number, number];
}

/** The inputs of {@link fusedAttention64}, as the caller gives `fusedAttention` them (not the kernels' flat problem). */
export interface Attention64Inputs {
  /** `[B, H, T, S, D, Dv]`. */
  readonly sizes: readonly [number, number, number, number, number, number];
  readonly scale: number;
  /** `query [B, H, T, D]`, `key [B, H, S, D]`, `value [B, H, S, Dv]`. */
  readonly query: ArrayLike<number>;
  readonly key: ArrayLike<number>;
  readonly value: ArrayLike<number>;
  /** Non-zero = may attend. */
  readonly mask?: Broadcast4 | undefined;
  readonly bias?: Broadcast4 | undefined;
}

function at(operand: Broadcast4, b: number, h: number, i: number, j: number): number {
  const [, hs, ts, ss] = operand.shape;
  const [bb, hh, ii, jj] = [b, h, i, j].map((index, axis) => (operand.shape[axis] === 1 ? 0 : index)) as [number, number, number, number];
  return operand.values[((bb * hs + hh) * ts + ii) * ss + jj] as number;
}

/**
 * Softmax attention in float64, `softmax(query · scale · keyᵀ + bias, mask) · value`, with
 * attnkit's masked softmax (blocked keys weigh 0; a query with no allowed key gives zeros), and the
 * bound on a float32 evaluation. Per query row, to first order in u = 2⁻²⁴ (γₙ = nu / (1 − nu)):
 * - a score `sⱼ` is within `εⱼ = γ_{D+1} · Σ|q · scale · k| + u · |sⱼ|` (q · scale rounded, D
 *   products summed in any order, the bias added);
 * - `eⱼ = exp(sⱼ − max)` then has relative error `ηⱼ = εⱼ + u · |sⱼ − max| + 4u` (the subtraction,
 *   and an exp within 2 ulp; an error in the max itself cancels between numerator and sum);
 * - the sum `Z = Σ eⱼ` is within `Σ pⱼ ηⱼ + γ_S` relative, the value sums `Σ eⱼ vⱼ` within
 *   `Σ pⱼ |vⱼ| (ηⱼ + γ_{S+2})` (products and sums, and the weights normalised first or last), and
 *   the reciprocal and the output store add `2u · |out|`.
 * The bound is the largest over the output; rows with nothing allowed must be exact zeros (bound 0).
 *
 * Shapes: see {@link Attention64Inputs} → `[B, H, T, Dv]`.
 *
 * @example
 * const { values, float32Bound } = fusedAttention64({ sizes: [1, 1, 2, 3, 4, 4], scale: 0.5, query, key, value });
 */
export function fusedAttention64(inputs: Attention64Inputs): Reference64 {
  const { sizes: [batch, heads, t, s, d, dv], scale, query, key, value, mask, bias } = inputs;
  const values = new Float64Array(batch * heads * t * dv);
  let float32Bound = 0;
  const scores = new Float64Array(s);
  const absolute = new Float64Array(s); // Σ|q · scale · k| per key
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < heads; h++) {
      const head = b * heads + h;
      for (let i = 0; i < t; i++) {
        const allowed = (j: number) => mask === undefined || at(mask, b, h, i, j) !== 0;
        let max = -Infinity;
        for (let j = 0; j < s; j++) {
          let score = 0;
          let magnitude = 0;
          for (let c = 0; c < d; c++) {
            const product = (query[(head * t + i) * d + c] as number) * scale * (key[(head * s + j) * d + c] as number);
            score += product;
            magnitude += Math.abs(product);
          }
          scores[j] = score + (bias === undefined ? 0 : at(bias, b, h, i, j));
          absolute[j] = magnitude;
          if (allowed(j)) max = Math.max(max, scores[j] as number);
        }
        if (max === -Infinity) continue; // nothing allowed: zeros, exactly
        let total = 0;
        const weights = new Float64Array(s);
        const eta = new Float64Array(s);
        for (let j = 0; j < s; j++) {
          if (!allowed(j)) continue;
          const score = scores[j] as number;
          weights[j] = Math.exp(score - max);
          total += weights[j] as number;
          eta[j] = gamma(d + 1) * (absolute[j] as number) + UNIT * Math.abs(score) + UNIT * (max - score) + 4 * UNIT;
        }
        let sumError = gamma(s);
        for (let j = 0; j < s; j++) sumError += ((weights[j] as number) / total) * (eta[j] as number);
        for (let c = 0; c < dv; c++) {
          let out = 0;
          let valueError = 0;
          for (let j = 0; j < s; j++) {
            const p = (weights[j] as number) / total;
            const v = value[(head * s + j) * dv + c] as number;
            out += p * v;
            valueError += p * Math.abs(v) * ((eta[j] as number) + gamma(s + 2));
          }
          values[(head * t + i) * dv + c] = out;
          float32Bound = Math.max(float32Bound, valueError + Math.abs(out) * (sumError + 2 * UNIT));
        }
      }
    }
  }
  return { values, float32Bound };
}
