// Microbenchmark: does the PyTorch weight layout ([out, in], used with transposeB) cost time in
// tfjs-wasm's fused matMul? Compares it with a weight kept as [in, out] (MiniLM FFN, 1 and 8 × 128). Before the
// _FusedMatMul fill kept one transposed copy per weight, the first row took 10.1 ms vs 3.9 ms at 128 rows;
// with the fill both rows should match.
import * as tf from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { printMedian } from './timing.js';

tf.env().set('PROD', true);
await useBackend('wasm');
const [E, F] = [384, 1536];
const weight = tf.randomNormal([F, E]); // PyTorch nn.Linear layout [out, in]
const weightT = tf.transpose(weight); // [in, out]
const bias = tf.randomNormal([F]);
for (const rows of [128, 1024]) {
  const x = tf.randomNormal([rows, E]);
  await printMedian(`[${rows}, ${E}] x weight [${F}, ${E}] transposeB + bias`, () => tf.fused.matMul({ a: x, b: weight, transposeB: true, bias }));
  await printMedian(`[${rows}, ${E}] x weight [${E}, ${F}] (kept transposed) + bias`, () => tf.fused.matMul({ a: x, b: weightT, bias }));
  await printMedian(`transpose of the weight alone [${F}, ${E}]`, () => tf.transpose(weight));
  x.dispose();
}
