import { WASM_PACKAGE, WEBGL_PACKAGE, WEBGPU_PACKAGE } from '../adapters/backend-packages.js';

/** What {@link attnkitOptimizeDeps} sets: Vite's `optimizeDeps.include` and `optimizeDeps.exclude`. */
export interface AttnkitOptimizeDeps {
  readonly include: string[];
  readonly exclude: string[];
}

/**
 * The dependency optimization a Vite app of attnkit needs in `vite dev`. `@attnkit/backends` is
 * served as it is (not pre-bundled), so Vite does not look into its imports: tfjs-core and the tfjs
 * backend packages it loads are pre-bundled here instead. Otherwise `vite dev` serves them raw
 * (`ReferenceError: module is not defined` from tfjs-core's CommonJS dependency `long`) and the
 * pre-bundled @attnkit packages hold a second copy of tfjs-core, with no backend registered in it.
 * `@tensorflow/tfjs-backend-cpu` is always included (a dependency); wasm, webgl and webgpu when installed.
 *
 * @example
 * attnkitOptimizeDeps(); // { include: ['@tensorflow/tfjs-core', '@attnkit/backends > @tensorflow/tfjs-backend-cpu', ...], exclude: ['@attnkit/backends'] }
 */
export function attnkitOptimizeDeps(): AttnkitOptimizeDeps {
  const backends = ['@tensorflow/tfjs-backend-cpu', ...[WASM_PACKAGE, WEBGL_PACKAGE, WEBGPU_PACKAGE].filter((p) => p.installed()).map((p) => p.name)];
  return {
    include: ['@tensorflow/tfjs-core', ...backends.map((name) => `@attnkit/backends > ${name}`)],
    exclude: ['@attnkit/backends'],
  };
}
