/**
 * Registers the gradient of every tfjs-core kernel, so `tf.grad`, `variableGrads` and optimizers
 * work. tfjs-core registers none by itself, and its own side-effect module
 * (`@tensorflow/tfjs-core/dist/register_all_gradients`) loads only through a bundler (Vite, webpack,
 * Vitest): plain Node cannot import it. Import this module instead; it works everywhere:
 * - with a bundler or in a browser, it is that module;
 * - in Node (the `node` export condition), it is a build of the same gradients that Node can load
 *   (made when this package is built); they register into the one registry every copy of tfjs-core
 *   shares, so they apply to the `@tensorflow/tfjs-core` your code imports.
 * `@attnkit/train` imports it for you.
 *
 * @example
 * import '@attnkit/backends/gradients';
 * const g = grad((x) => sum(square(x)))(tensor1d([1, 2])); // [2, 4]
 */
import '@tensorflow/tfjs-core/dist/register_all_gradients';
