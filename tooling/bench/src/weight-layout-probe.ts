// Microbenchmark: does the PyTorch weight layout ([out, in], used with transposeB) cost time in
// tfjs-wasm's fused matMul? Compares it with a weight kept as [in, out] (MiniLM FFN, 1 and 8 × 128).
import * as tf from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';

tf.env().set('PROD', true);
await useBackend('wasm');
async function time(label: string, fn: () => tf.Tensor): Promise<void> {
  for (let i = 0; i < 2; i++) { const y = fn(); await y.data(); y.dispose(); }
  const times: number[] = [];
  for (let i = 0; i < 9; i++) { const t = performance.now(); const y = fn(); await y.data(); y.dispose(); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(64)} ${times[4]!.toFixed(2)} ms`);
}
const [E, F] = [384, 1536];
const weight = tf.randomNormal([F, E]); // PyTorch nn.Linear layout [out, in]
const weightT = tf.transpose(weight); // [in, out]
const bias = tf.randomNormal([F]);
for (const rows of [128, 1024]) {
  const x = tf.randomNormal([rows, E]);
  await time(`[${rows}, ${E}] x weight [${F}, ${E}] transposeB + bias`, () => tf.fused.matMul({ a: x, b: weight, transposeB: true, bias }));
  await time(`[${rows}, ${E}] x weight [${E}, ${F}] (kept transposed) + bias`, () => tf.fused.matMul({ a: x, b: weightT, bias }));
  await time(`transpose of the weight alone [${F}, ${E}]`, () => tf.transpose(weight));
  x.dispose();
}
