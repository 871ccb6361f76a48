// Generation speed of the decoder families (issue "Decoders"): prefill and decode tokens per second, float32
// and int8, on the tfjs wasm backend (and cpu for the tiny models), greedy, one prompt.
//   tooling/bench/node_modules/.bin/tsx --conditions=@attnkit/source tooling/bench/src/generation-speed.ts [FOLDER ...]
// Without folders: the tiny fixtures of tooling/reference/fixtures/decoders (gpt2, llama, qwen3). A
// SmolLM-135M-shaped random Llama (30 layers, 576 wide, 9 heads, 3 key/value heads) is written, not committed, by
//   .venv-ref/bin/python tooling/reference/make_decoder_fixtures.py --speed-model /tmp/smollm-shaped
// Prefill: one forward of a P-token prompt over an empty cache, the last position's logits read back.
// Decode: the time between the first and the last of N new tokens of generate (each a forward of one token
// over the cache, its logits read back, the token chosen), so (N − 1) / seconds. Median of 3 runs after a warm-up.
import { join } from 'node:path';
import { useBackend } from '@attnkit/backends';
import { decoderParameterCount, loadCausalLM, type CausalLM } from '@attnkit/models';
import { rootDir } from './peer/paths.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const prompt = (length: number, vocab: number) => Array.from({ length }, (_, i) => (i * 7919 + 13) % vocab);

function prefill(model: CausalLM, length: number): number {
  const cache = model.createCache({ maxLength: length });
  const start = performance.now();
  const { logits } = model.forward({ inputIds: [prompt(length, model.config.vocabSize)], pastKeyValues: cache, logitsToKeep: 1 });
  logits.dataSync();
  const seconds = (performance.now() - start) / 1000;
  logits.dispose();
  cache.dispose();
  return length / seconds;
}

async function decode(model: CausalLM, newTokens: number): Promise<number> {
  const times: number[] = [];
  await model.generate(prompt(16, model.config.vocabSize), { maxNewTokens: newTokens, eosTokenId: null, doSample: false, onToken: () => times.push(performance.now()) });
  return (newTokens - 1) / ((times.at(-1)! - times[0]!) / 1000);
}

const folders = process.argv.slice(2);
const models = folders.length > 0 ? folders : ['gpt2', 'llama', 'qwen3'].map((name) => join(rootDir, 'tooling', 'reference', 'fixtures', 'decoders', name));
console.log('| model | backend | weights | prefill 16 tok/s | prefill 128 (tiny: 64) tok/s | decode tok/s (64 new, tiny: 48; batch 1) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const folder of models) {
  const small = folders.length === 0;
  for (const backend of small ? ['cpu', 'wasm'] : ['wasm']) {
    await useBackend(backend);
    for (const quantize of [undefined, 'int8'] as const) {
      if (quantize === 'int8' && backend === 'cpu') continue;
      const model = await loadCausalLM(folder, quantize === undefined ? {} : { quantize });
      const lengths = [16, Math.min(128, model.config.maxPositionEmbeddings)];
      prefill(model, 16);
      await decode(model, 8); // warm-up: kernels compiled, threads up
      const rates = lengths.map((length) => median([0, 1, 2].map(() => prefill(model, length))));
      const newTokens = Math.min(64, model.config.maxPositionEmbeddings - 16);
      const decoding = median([await decode(model, newTokens), await decode(model, newTokens), await decode(model, newTokens)]);
      const name = folder.split('/').filter(Boolean).at(-1);
      console.log(`| ${name} (${(decoderParameterCount(model.config) / 1e6).toFixed(2)} M) | ${backend} | ${quantize ?? 'float32'} | ${rates[0]!.toFixed(0)} | ${rates[1]!.toFixed(0)} | ${decoding.toFixed(1)} |`);
      model.dispose();
    }
  }
}
