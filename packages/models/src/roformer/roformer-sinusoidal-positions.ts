import { concat, reshape, slice, tensor2d, tidy, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkInteger } from '@attnkit/errors';
import { Module } from '@attnkit/nn';

/**
 * RoFormer's sinusoidal table as transformers' `create_weight` makes it: row p holds
 * `sin(p / 10000^(2i / D))` for i < D/2, then the cosines of the same angles (angles in float64,
 * values rounded to float32). `maxPositions` M, head width D (even) → `[M, D]` row-major.
 *
 * @example
 * roformerSinusoidalTable(1536, 64); // Float32Array(1536 * 64)
 */
export function roformerSinusoidalTable(maxPositions: number, headDim: number): Float32Array {
  checkInteger(maxPositions, { caller: 'roformerSinusoidalTable', argument: 'maxPositions', min: 1 });
  checkInteger(headDim, { caller: 'roformerSinusoidalTable', argument: 'headDim', min: 2 });
  const half = headDim / 2;
  const out = new Float32Array(maxPositions * headDim);
  for (let p = 0; p < maxPositions; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p / Math.pow(10000, (2 * i) / headDim);
      out[p * headDim + i] = Math.sin(angle);
      out[p * headDim + half + i] = Math.cos(angle);
    }
  }
  return out;
}

/**
 * `encoder.embed_positions`: RoFormer's sinusoidal table `weight` `[M, D]` (a parameter, not
 * trained: transformers freezes it; checkpoints store it), and the rotary tables of the first T
 * positions in the interleaved layout `applyRotaryInterleaved` takes.
 *
 * @example
 * const { cos, sin } = model.encoder.get('embed_positions').rotaryTables(7); // [1, 7, D] each
 */
export class RoFormerSinusoidalPositions extends Module {
  /** `[M, D]`. */
  readonly weight: Variable;
  readonly headDim: number;

  constructor(maxPositions: number, headDim: number) {
    super();
    this.headDim = headDim;
    this.weight = this.registerParameter('weight', tensor2d(roformerSinusoidalTable(maxPositions, headDim), [maxPositions, headDim]), { trainable: false });
  }

  /** Puts the sinusoidal values back (after an initialisation that drew random ones). */
  reset(): void {
    this.assertLive('RoFormerSinusoidalPositions.reset');
    const [maxPositions, headDim] = this.weight.shape as [number, number];
    tidy(() => this.weight.assign(tensor2d(roformerSinusoidalTable(maxPositions, headDim), [maxPositions, headDim])));
  }

  /** Positions 0..T−1 (T ≤ M, checked by the model's forward) → `cos`, `sin` `[1, T, D]`, each angle twice in a row (θ₀, θ₀, θ₁, θ₁, ...). */
  rotaryTables(length: number): { cos: Tensor; sin: Tensor } {
    this.assertLive('RoFormerSinusoidalPositions.rotaryTables');
    checkInteger(length, { caller: 'RoFormerSinusoidalPositions.rotaryTables', argument: 'length', min: 1, max: this.weight.shape[0] as number });
    const half = this.headDim / 2;
    return tidy(() => {
      const twice = (column: number) => {
        const values = reshape(slice(this.weight, [0, column], [length, half]), [length, half, 1]); // [T, D/2, 1]
        return reshape(concat([values, values], 2), [1, length, this.headDim]); // [T, D/2, 2] -> [1, T, D]
      };
      return { sin: twice(0), cos: twice(half) }; // sin in the first half of the table, cos in the second
    });
  }
}
