import { env, getBackend } from '@tensorflow/tfjs-core';
import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/** The fill for half-float storage: finite, and |fill| + |scores| stays below 65504. */
const HALF_FLOAT_FILL = -3e4;
/** The fill for float32: exp(fill - max) is exactly 0, fill - max stays finite. */
const FLOAT32_FILL = -1e9;

/**
 * The value blocked scores are replaced with before the softmax: large and negative so that
 * `exp(fill - max)` is 0, yet finite in the backend's real storage — never `-Infinity` (it breaks
 * WebGL shader compilation and turns fully masked rows into NaN) and never `-1e9` on half-float
 * WebGL textures (it overflows them).
 *
 * @param dtype `'float32'` (default) or `'float16'` (storage you know is half precision)
 * @param backend default: the active backend; WebGL without float32 render targets counts as float16
 * @example
 * maskedFillValue(); // -1e9 on cpu/wasm/webgpu and float32 WebGL; -30000 on half-float WebGL
 */
export function maskedFillValue(dtype: 'float32' | 'float16' = 'float32', backend: string = getBackend()): number {
  if (dtype !== 'float32' && dtype !== 'float16') {
    throw new InvalidArgumentError({ caller: 'maskedFillValue', argument: 'dtype', expected: "'float32' or 'float16'", received: typeof dtype === 'string' ? dtype : describeValue(dtype) });
  }
  if (typeof backend !== 'string' || backend === '') {
    throw new InvalidArgumentError({ caller: 'maskedFillValue', argument: 'backend', expected: "a backend name such as 'cpu', 'wasm' or 'webgl' (default: the current backend)", received: describeValue(backend) });
  }
  const halfFloatWebgl = backend === 'webgl' && !env().getBool('WEBGL_RENDER_FLOAT32_ENABLED');
  return dtype === 'float16' || halfFloatWebgl ? HALF_FLOAT_FILL : FLOAT32_FILL;
}
