import { env } from '@tensorflow/tfjs-core';

// Silences tfjs' "looks like you are running TensorFlow.js in Node.js" banner in test output.
env().set('IS_TEST', true);
