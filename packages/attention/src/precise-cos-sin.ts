import { mul, round, scalar, sub, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';

/** 2π in three parts (Cody and Waite): `k · C1` and `k · C2` are exact in float32 for |k| < 2^16. */
const C1 = 6.28125; // 8 significant bits
const C2 = 127 / 65536; // 7 significant bits: round((2π - C1) · 2^16) / 2^16
const C3 = Math.fround(2 * Math.PI - C1 - C2);
const INVERSE_TWO_PI = Math.fround(1 / (2 * Math.PI));

/**
 * `cos` and `sin` of float32 angles to about 3e-7 absolute on every backend, from multiplications
 * and additions only: the angle reduced to [-π, π] by whole turns (2π in three parts, exact for
 * angles below about 4·10^5), halved, sine and cosine of the half angle by their Taylor series (to
 * the 15th and 16th power, below 1e-9 on [-π/2, π/2]), then `cos = c² − s²`, `sin = 2sc`. It exists
 * for the GPU backends: WebGL and WebGPU evaluate `cos` and `sin` with the GPU's own approximations,
 * measured 1.9e-4 off on [-π, π] and 1.5e-3 at angles of 2·10^4 (headless Chromium, SwiftShader),
 * which is the whole error of rotary position embeddings there.
 *
 * `angles` float32, any shape → `[cos, sin]` of that shape (the caller disposes both).
 *
 * @example
 * const [c, s] = preciseCosSin(tf.tensor1d([0, 1, 1000])); // ≈ [1, 0.5403, 0.5624], [0, 0.8415, 0.8269]
 */
export function preciseCosSin(angles: Tensor): [Tensor, Tensor] {
  checkTensor(angles, { caller: 'preciseCosSin', argument: 'angles', dtype: 'float32' });
  return tidy(() => {
    const turns = round(mul(angles, INVERSE_TWO_PI));
    const reduced = sub(sub(sub(angles, mul(turns, C1)), mul(turns, C2)), mul(turns, C3)); // [-π, π] (a little past it where the product rounds)
    const half = mul(reduced, 0.5);
    const squared = mul(half, half);
    // Horner from the last term: sin h = h (1 − h²/(2·3) (1 − h²/(4·5) (...))), cos h = 1 − h²/(1·2) (1 − h²/(3·4) (...))
    let sine: Tensor = scalar(1);
    for (let n = 15; n >= 3; n -= 2) sine = sub(1, mul(mul(squared, 1 / ((n - 1) * n)), sine));
    sine = mul(half, sine);
    let cosine: Tensor = scalar(1);
    for (let n = 16; n >= 2; n -= 2) cosine = sub(1, mul(mul(squared, 1 / ((n - 1) * n)), cosine));
    return [sub(mul(cosine, cosine), mul(sine, sine)), mul(mul(sine, cosine), 2)];
  });
}
