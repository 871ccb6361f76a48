// One side of int8-ab.ts: a fresh process that times `runs` warm forwards of the MiniLM-shaped encoder on tfjs-wasm
// (int8 unless --float) with the kernel threads, and prints the times as JSON on its last line. Kept free of
// anything newer than the commits it compares (it is copied into the other tree as it is).
import { env } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadBert } from '@attnkit/models';
import { startKernelThreads } from '@attnkit/kernels';
import { quantizeLinearLayers } from '@attnkit/nn';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => { const i = args.indexOf(`--${name}`); return i < 0 ? fallback : (args[i + 1] as string); };
const [folder, threads, runs, batch, length] = [option('model', ''), Number(option('threads', '2')), Number(option('runs', '5')), Number(option('batch', '8')), Number(option('length', '128'))];
env().set('PROD', true);
await useBackend('wasm');
await startKernelThreads({ threads });
const model = await loadBert(folder);
if (!args.includes('--float')) quantizeLinearLayers(model);
const inputs = { inputIds: Array.from({ length: batch }, (_, b) => Array.from({ length }, (_, i) => 1000 + ((i * 7 + b * 13) % 20000))) };
const forward = () => { const out = model.forward(inputs); const values = out.lastHiddenState.dataSync() as Float32Array; out.lastHiddenState.dispose(); out.poolerOutput.dispose(); return values; };
forward(); forward();
const times: number[] = [];
let checksum = 0;
for (let r = 0; r < runs; r++) {
  const start = performance.now();
  const values = forward();
  times.push(performance.now() - start);
  checksum = 0;
  for (let i = 0; i < values.length; i++) checksum += (values[i] as number) * ((i % 7) + 1);
}
model.dispose();
console.log(JSON.stringify({ times, checksum }));
