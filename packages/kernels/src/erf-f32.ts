import { describeValue, InvalidArgumentError } from '@attnkit/errors';

import { ERF_COEFFICIENTS } from './wasm/erf-coefficients.js';

/**
 * The float32 erf of attnkit's wasm kernels, in JavaScript: the fallback where WebAssembly SIMD is
 * missing (the `'js'` int8 kernel's GELU) and the reference the kernels' tests compare with. Not a
 * second implementation to keep in step: the coefficients are generated from `csrc/gelu.h`, the one
 * source of erf (`pnpm build:wasm` writes `src/wasm/erf-coefficients.ts`; float32 values fitted to
 * float64 erf by `tooling/reference/fit_erf.py`, max error 1.6e-7 on [-6, 6]), and the arithmetic is
 * gelu.h's, each operation rounded to float32 in its order, so it gives the kernels' numbers bit for
 * bit (erf-f32.test.ts runs both). With a = |x|: a < 1 → `x · (c0 + t · A(t))`, t = x²;
 * a ≥ 1 → `sign(x) · (1 − B(u) / Q(u))`, u = min(a, 4) − 2.5; capped at 1; NaN, ±0, ±∞ → NaN, ±0, ±1.
 *
 * @example
 * ERF_F32.a.length; // 6 (A of degree 5, lowest degree first)
 */
export const ERF_F32 = ERF_COEFFICIENTS;

const f = Math.fround;

function checkNumber(x: unknown, caller: string): number {
  if (typeof x !== 'number') throw new InvalidArgumentError({ caller, argument: 'x', expected: 'a number (NaN and ±Infinity included)', received: describeValue(x) });
  return x;
}

/** Horner in float32, highest coefficient first as the kernels do. */
function horner(coefficients: readonly number[], v: number): number {
  let p = f(coefficients.at(-1) as number);
  for (let i = coefficients.length - 2; i >= 0; i--) p = f(f(p * v) + f(coefficients[i] as number));
  return p;
}

/**
 * erf(x) in float32 exactly as the wasm kernels compute it (see {@link ERF_F32}). A non-number
 * is an `InvalidArgumentError`.
 *
 * @example
 * erfF32(0.5); // 0.5204999 (float32)
 */
export function erfF32(x: number): number {
  x = f(checkNumber(x, 'erfF32'));
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  const s = Math.min(a, 1);
  const t = f(s * s);
  const u = f(Math.min(a, 4) - 2.5);
  const small = f(s * f(f(ERF_F32.c0) + f(t * horner(ERF_F32.a, t))));
  const large = f(1 - f(horner(ERF_F32.b, u) / horner(ERF_F32.q, u)));
  const magnitude = Math.min(a < 1 ? small : large, 1);
  return x < 0 || Object.is(x, -0) ? -magnitude : magnitude;
}

/**
 * Exact (erf) GELU in float32 as attnkit's wasm kernels compute it: `x · (0.5 + 0.5 · erf(x · √½))`.
 *
 * @example
 * geluF32(1); // 0.8413447 (float32)
 */
export function geluF32(x: number): number {
  x = f(checkNumber(x, 'geluF32'));
  return f(x * f(0.5 + f(0.5 * erfF32(f(x * f(Math.SQRT1_2))))));
}
