// Microbenchmark: 96 single-batch matMuls (one per batch · head) vs one batched matMul on tfjs-wasm.
import * as tf from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { printMedian as time } from './timing.js';

tf.env().set('PROD', true);
await useBackend('wasm');
const q = tf.randomNormal([96, 128, 32]);
const k = tf.randomNormal([96, 128, 32]);
const kT = tf.transpose(k, [0, 2, 1]);
await time('batched [96,128,32] x [96,128,32]^T', () => tf.matMul(q, k, false, true));
await time('96 × [128,32] x [32,128] (unstack, matMul, stack)', () => tf.tidy(() => tf.stack(tf.unstack(q).map((a, i) => tf.matMul(a, tf.unstack(kT)[i]!)))));
const qs = tf.unstack(q);
const kTs = tf.unstack(kT);
const ks = tf.unstack(k);
await time('96 × [128,32] x [32,128] (pre-split, stack)', () => tf.tidy(() => tf.stack(qs.map((a, i) => tf.matMul(a, kTs[i]!)))));
await time('96 × [128,32] x [128,32]^T (pre-split, transposeB)', () => tf.tidy(() => tf.stack(qs.map((a, i) => tf.matMul(a, ks[i]!, false, true)))));
await time('unstack [96,128,32] only', () => tf.tidy(() => tf.stack(tf.unstack(q))));
