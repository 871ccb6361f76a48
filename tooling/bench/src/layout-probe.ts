// Microbenchmark: which transpose and batched-matMul layouts are fast on tfjs-wasm (MiniLM, 8 × 128).
import * as tf from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { printMedian as time } from './timing.js';

tf.env().set('PROD', true);
await useBackend('wasm');
const [B, T, H, D] = [8, 128, 12, 32];
const qkv = tf.randomNormal([B, T, 3 * H * D]);
const x4 = tf.randomNormal([B, T, H, D]);
const q = tf.randomNormal([B, H, T, D]);
const kT = tf.randomNormal([B, H, D, T]);
const k = tf.randomNormal([B, H, T, D]);
const p = tf.randomNormal([B, H, T, T]);
await time('transpose 5-D [B,T,3,H,D] -> [3,B,H,T,D]', () => tf.transpose(tf.reshape(qkv, [B, T, 3, H, D]), [2, 0, 3, 1, 4]));
await time('transpose 4-D [B,T,H,D] -> [B,H,T,D]', () => tf.transpose(x4, [0, 2, 1, 3]));
await time('transpose 3-D [B·T,H,D] -> [H,B·T,D]', () => tf.transpose(tf.reshape(x4, [B * T, H, D]), [1, 0, 2]));
await time('transpose 4-D [B,H,T,D] -> [B,H,D,T]', () => tf.transpose(q, [0, 1, 3, 2]));
await time('split qkv [B,T,3E] -> 3 slices (copy)', () => tf.concat(tf.split(qkv, 3, 2), 2));
await time('matMul q · kᵀ (transposeB) [B,H,T,D]', () => tf.matMul(q, k, false, true));
await time('matMul q · kT (no transpose) [B,H,T,D]x[B,H,D,T]', () => tf.matMul(q, kT));
await time('matMul q · kT as rank 3 [B·H,T,D]x[B·H,D,T]', () => tf.matMul(tf.reshape(q, [B * H, T, D]), tf.reshape(kT, [B * H, D, T])));
await time('matMul p · v [B,H,T,T]x[B,H,T,D]', () => tf.matMul(p, k));
const wide = tf.randomNormal([B * T, 1536]);
await time('erf [B·T, 1536]', () => tf.erf(wide));
await time('tanh-free GELU pieces: mul [B·T, 1536]', () => tf.mul(wide, 0.5));
