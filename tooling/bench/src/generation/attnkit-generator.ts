import { describeBackend, useBackend } from '@attnkit/backends';
import { kernelThreads, startKernelThreads } from '@attnkit/kernels';
import type { ModelSource } from '@attnkit/hub';
import { loadCausalLM } from '@attnkit/models';
import type { GenerationEngine } from './engines.js';
import type { Generator } from './measure.js';

/**
 * attnkit: `loadCausalLM(folder)` (int8: `{ quantize: 'int8' }`, every Linear and the tied lm_head on the
 * int8 kernels) on tfjs-wasm with `threads` threads (`tfjsThreads` where set) and `threads` kernel threads, then
 * `generate(rows, { maxNewTokens, eosTokenId: null, doSample: false })`: greedy, a KV cache, the prompt as
 * one forward (logits of the last position only).
 */
export async function createAttnkitGenerator(spec: GenerationEngine, source: ModelSource, wasmPaths?: string): Promise<Generator> {
  const tfjsThreads = spec.tfjsThreads ?? (spec.threads === 1 ? 1 : undefined); // undefined: the library's default (the cores the kernel workers leave)
  await useBackend('wasm', { ...(tfjsThreads === undefined ? {} : { numThreads: tfjsThreads }), ...(wasmPaths ? { wasmPaths } : {}) });
  await startKernelThreads({ threads: spec.threads });
  const model = await loadCausalLM(source, spec.precision === 'int8' ? { quantize: 'int8' } : {});
  return {
    async generate(rows, newTokens, onStep) {
      const { tokens } = await model.generate(rows, { maxNewTokens: newTokens, eosTokenId: null, doSample: false, onToken: ({ index }) => onStep(index) });
      return tokens;
    },
    async threadsUsed() {
      const caps = await describeBackend();
      return caps.wasm ? `${caps.wasm.threadCount} (kernels ${kernelThreads().threads})` : 'wasm';
    },
    async dispose() {
      model.dispose();
    },
  };
}
