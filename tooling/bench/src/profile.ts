// Per-kernel time of one BERT forward on tfjs-wasm (tf.profile), to see what limits the forward.
import { env, profile } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadBert } from '@attnkit/models';

env().set('PROD', true);
const [folder = 'models/minilm-shaped', batch = '8', length = '128'] = process.argv.slice(2);
await useBackend('wasm');
const model = await loadBert(folder);
const inputs = { inputIds: Array.from({ length: Number(batch) }, () => Array.from({ length: Number(length) }, (_, i) => 1000 + i)) };
const warm = model.forward(inputs);
warm.lastHiddenState.dispose();
warm.poolerOutput.dispose();
const info = await profile(async () => {
  const out = model.forward(inputs);
  await out.lastHiddenState.data();
  out.lastHiddenState.dispose();
  out.poolerOutput.dispose();
});
const byKernel = new Map<string, { ms: number; calls: number }>();
for (const k of info.kernels) {
  const ms = typeof k.kernelTimeMs === 'number' ? k.kernelTimeMs : 0;
  const entry = byKernel.get(k.name) ?? { ms: 0, calls: 0 };
  byKernel.set(k.name, { ms: entry.ms + ms, calls: entry.calls + 1 });
}
const total = [...byKernel.values()].reduce((s, e) => s + e.ms, 0);
console.log(`total kernel time ${total.toFixed(0)} ms in ${info.kernels.length} kernels`);
for (const [name, e] of [...byKernel].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14)) console.log(`${name.padEnd(22)} ${e.ms.toFixed(1).padStart(8)} ms  ${e.calls} calls  ${((100 * e.ms) / total).toFixed(1)} %`);
model.dispose();
