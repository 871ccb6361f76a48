// The kernels' unchecked entry points, for attnkit's own layers: they checked their inputs at their
// public boundary (`Linear.forward`, `linear`), so the product does not check them a second time.
// Anything else calls the checked `f32MatMul` of the main entry point.
export { f32MatMulUnchecked } from './f32-mat-mul.js';
