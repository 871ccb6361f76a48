import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { BackendName } from './backend-name.js';

/** Relative bounds of {@link defaultTolerance}: float32 arithmetic on cpu and wasm; GPUs may render to half-float textures. */
export const DEFAULT_RELATIVE_TOLERANCE: Readonly<Record<BackendName, number>> = { cpu: 1e-4, wasm: 1e-4, webgl: 1e-3, webgpu: 1e-3 };

/**
 * The max abs difference {@link compareBackends} allows a backend when the caller gives none:
 * `DEFAULT_RELATIVE_TOLERANCE[backend] × max(1, max |expected|)` (finite values only) — 1e-4 of
 * the output's scale on cpu and wasm, 1e-3 on webgl and webgpu. A float32 block that agrees with
 * its reference passes; a wrong one (a swapped axis, a dropped mask, NaN) does not.
 *
 * @example
 * defaultTolerance('wasm', [0.5, -20]); // 0.002
 */
export function defaultTolerance(backend: BackendName, expected: ArrayLike<number>): number {
  const relative = typeof backend === 'string' && Object.hasOwn(DEFAULT_RELATIVE_TOLERANCE, backend) ? DEFAULT_RELATIVE_TOLERANCE[backend] : undefined;
  if (relative === undefined) throw new InvalidArgumentError({ caller: 'defaultTolerance', argument: 'backend', expected: `one of ${Object.keys(DEFAULT_RELATIVE_TOLERANCE).join(', ')}`, received: describeValue(backend) });
  if (typeof expected !== 'object' || expected === null || typeof (expected as { length?: unknown }).length !== 'number') {
    throw new InvalidArgumentError({ caller: 'defaultTolerance', argument: 'expected', expected: 'an array or typed array of numbers', received: describeValue(expected) });
  }
  let scale = 1;
  for (let i = 0; i < expected.length; i++) {
    if (Array.isArray(expected) && !(i in expected)) throw new InvalidArgumentError({ caller: 'defaultTolerance', argument: `expected[${i}]`, expected: 'a number (the list has a hole there)', received: 'nothing' });
    const size = Math.abs(expected[i] as number);
    if (Number.isFinite(size) && size > scale) scale = size;
  }
  return relative * scale;
}
