// The cost of one decoding step where it can be read on a busy machine: the tfjs kernels a step
// runs (by name) and the process CPU time per step, one thread (tfjs-wasm and attnkit's kernels),
// greedy, after a 128-token prompt. A/B changes with it: CPU time moves far less than wall time
// when other processes share the cores.
//   pnpm --filter @attnkit/bench exec tsx --conditions=@attnkit/source src/decode-profile.ts models/smollm-shaped int8
import { profile, tensor2d } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { startKernelThreads } from '@attnkit/kernels';
import { loadCausalLM } from '@attnkit/models';

const [folder = 'models/smollm-shaped', precision = 'int8'] = process.argv.slice(2);
await useBackend('wasm', { numThreads: 1 });
await startKernelThreads({ threads: 1 });
const model = await loadCausalLM(folder, precision === 'int8' ? { quantize: 'int8' } : {});
const prompt = [Array.from({ length: 128 }, (_, i) => ((i * 7) % 1000) + 5)];
const greedy = { eosTokenId: null, doSample: false } as const;

const cpu: number[] = [];
for (let round = 0; round < 4; round++) {
  let last = process.cpuUsage();
  let first = true;
  await model.generate(prompt, { ...greedy, maxNewTokens: 17, onToken: () => {
    const used = process.cpuUsage(last);
    if (!first && round > 0) cpu.push((used.user + used.system) / 1000); // round 0 warms up; the first token is the prompt's
    first = false;
    last = process.cpuUsage();
  } });
}
cpu.sort((a, b) => a - b);
const cache = model.createCache();
model.forward({ inputIds: tensor2d(prompt, undefined, 'int32'), pastKeyValues: cache, logitsToKeep: 1 }).logits.dispose(); // the prompt
const step = (await profile(() => { model.forward({ inputIds: tensor2d([[7]], undefined, 'int32'), pastKeyValues: cache, logitsToKeep: 1 }).logits.dispose(); })).kernels;
cache.dispose();
const counts = new Map<string, number>();
for (const k of step) counts.set(k.name, (counts.get(k.name) ?? 0) + 1);
console.log(`${folder} ${precision}: a decoding step takes ${cpu[Math.floor(cpu.length / 2)]!.toFixed(1)} ms of CPU (median of ${cpu.length}; min ${cpu[0]!.toFixed(1)}) and runs ${step.length} tfjs kernels:`);
console.log([...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', '));
model.dispose();
process.exit(0);
