import { env } from '@tensorflow/tfjs-core';

// Silences tfjs' "looks like you are running TensorFlow.js in Node.js" banner. PROD, not IS_TEST:
// IS_TEST also turns on tfjs' per-kernel data-id leak check, which miscounts data moved between
// backends inside nested kernels (e.g. fused.matMul) and reports leaks that are not there.
// attnkit's own tests check leaks with tf.memory() (tensors and bytes) instead.
env().set('PROD', true);
