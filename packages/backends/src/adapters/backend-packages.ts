import type { BackendPackage } from './backend-package.js';
import { packageInstalled } from './package-installed.js';

/** The tfjs release range `@attnkit/backends` declares for its optional backend packages. */
const TFJS_RANGE = '^4.22.0';

/** `@tensorflow/tfjs-backend-wasm` (XNNPACK; Node and browsers). */
export const WASM_PACKAGE = {
  backend: 'wasm',
  name: '@tensorflow/tfjs-backend-wasm',
  versionRange: TFJS_RANGE,
  load: () => import('@tensorflow/tfjs-backend-wasm'),
  installed: () => packageInstalled('@tensorflow/tfjs-backend-wasm'),
} satisfies BackendPackage;

/** `@tensorflow/tfjs-backend-webgl` (browsers). */
export const WEBGL_PACKAGE = {
  backend: 'webgl',
  name: '@tensorflow/tfjs-backend-webgl',
  versionRange: TFJS_RANGE,
  load: () => import('@tensorflow/tfjs-backend-webgl'),
  installed: () => packageInstalled('@tensorflow/tfjs-backend-webgl'),
} satisfies BackendPackage;

/** `@tensorflow/tfjs-backend-webgpu` (browsers with WebGPU). */
export const WEBGPU_PACKAGE = {
  backend: 'webgpu',
  name: '@tensorflow/tfjs-backend-webgpu',
  versionRange: TFJS_RANGE,
  load: () => import('@tensorflow/tfjs-backend-webgpu'),
  installed: () => packageInstalled('@tensorflow/tfjs-backend-webgpu'),
} satisfies BackendPackage;
