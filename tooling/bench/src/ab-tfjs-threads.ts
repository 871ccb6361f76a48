// A/B of tfjs-wasm's own thread count beside attnkit's kernel threads (one configuration per process).
//   tsx --conditions=@attnkit/source src/ab-tfjs-threads.ts <tfjsThreads, 0 = default> <encoder-fp32|encoder-int8|decode-fp32|decode-int8> [model folder]
import { join } from 'node:path';
import { useBackend } from '@attnkit/backends';
import { loadCausalLM } from '@attnkit/models';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { modelDir } from './peer/paths.js';

const [threads, mode, folder] = [Number(process.argv[2]), process.argv[3]!, process.argv[4]];
await useBackend('wasm', threads > 0 ? { numThreads: threads } : {}); // 0: the library's default
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
if (mode.startsWith('encoder')) {
  const model = await loadSentenceEncoder(modelDir, mode.endsWith('int8') ? { quantize: 'int8' } : {});
  const texts = Array.from({ length: 8 }, (_, i) => Array.from({ length: 200 }, (_, j) => `word${(i * 31 + j) % 97}`).join(' '));
  const times: number[] = [];
  for (let r = 0; r < 6; r++) { const t0 = performance.now(); const e = await model.encode(texts, { normalize: true }); await e.data(); e.dispose(); times.push(performance.now() - t0); }
  console.log(JSON.stringify({ threads, mode, ms: median(times.slice(1)) }));
} else {
  const model = await loadCausalLM(folder ?? join(modelDir, '..', 'smollm-shaped'), mode.endsWith('int8') ? { quantize: 'int8' } : {});
  const prompt = Array.from({ length: 32 }, (_, i) => (i * 7919 + 13) % 300);
  const rate = async () => { const times: number[] = []; await model.generate(prompt, { maxNewTokens: 24, eosTokenId: null, doSample: false, onToken: () => times.push(performance.now()) }); return 23 / ((times.at(-1)! - times[0]!) / 1000); };
  await rate();
  console.log(JSON.stringify({ threads, mode, tokensPerSecond: median([await rate(), await rate(), await rate()]) }));
}
