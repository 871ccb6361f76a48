import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { readSafetensors } from '@attnkit/hub';
import { loadCausalLM } from '../load/load-causal-lm.js';
import { causalLMStateFromStored, causalLMStoredTensors } from './causal-lm-stored-tensors.js';

const DECODERS = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/decoders/', import.meta.url).pathname);
const BUFFERS = /(^|\.)(attn\.(bias|masked_bias)|rotary_emb\.inv_freq)$/;

describe('causalLMStoredTensors and causalLMStateFromStored', () => {
  it.each(['gpt2', 'llama', 'qwen3-untied', 'qwen2-tied'])('give back the stored file transformers wrote for %s (names, shapes, values), and load back to the same logits', async (name) => {
    await useBackend('cpu');
    const folder = join(DECODERS, name);
    const python = readSafetensors(new Uint8Array(readFileSync(join(folder, 'model.safetensors')))).tensors;
    const [model, other] = [await loadCausalLM(folder), await loadCausalLM(folder)];
    const before = memory().numTensors;
    const stored = await causalLMStoredTensors(model);
    const kept = [...python.keys()].filter((key) => !BUFFERS.test(key) && !(key === 'lm_head.weight' && model.config.tieWordEmbeddings));
    expect([...stored.keys()].sort()).toEqual(kept.sort());
    for (const key of kept) {
      const [ours, theirs] = [stored.get(key)!, python.get(key)!];
      expect(ours.shape, key).toEqual([...theirs.shape]);
      expect(Buffer.from(new Float32Array(ours.values).buffer).equals(Buffer.from(new Float32Array(theirs.values).buffer)), key).toBe(true);
    }
    // a second model of other (random) weights takes the stored tensors and gives the same logits
    other.loadStateDict(new Map(other.namedParameters().map(([key, p]) => [key, { shape: p.shape, values: new Float32Array(p.size).fill(0.5) }])));
    other.loadStateDict(causalLMStateFromStored(other, stored));
    const inputIds = [[1, 5, 9, 3]];
    const [a, b] = [model.forward({ inputIds }).logits, other.forward({ inputIds }).logits];
    expect([...(await b.data())]).toEqual([...(await a.data())]);
    a.dispose();
    b.dispose();
    expect(memory().numTensors).toBe(before);
    model.dispose();
    other.dispose();
  });

  it('refuses what is not a float causal LM with an InvalidArgumentError', async () => {
    await useBackend('cpu');
    const folder = join(DECODERS, 'gpt2');
    await expect(causalLMStoredTensors({} as never)).rejects.toThrow("causalLMStoredTensors: 'model' must be a causal language model (loadCausalLM); received Object.");
    const int8 = await loadCausalLM(folder, { quantize: 'int8' });
    await expect(causalLMStoredTensors(int8)).rejects.toThrow(InvalidArgumentError);
    await expect(causalLMStoredTensors(int8)).rejects.toThrow(/a float causal LM .* received an int8 model/);
    int8.dispose();
    const model = await loadCausalLM(folder);
    expect(() => causalLMStateFromStored(model, {} as never)).toThrow("causalLMStateFromStored: 'stored' must be a Map of stored name to { shape, values } (readSafetensors(bytes).tensors); received Object.");
    model.dispose();
  });
});
