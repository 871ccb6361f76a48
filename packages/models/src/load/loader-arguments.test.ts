import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadCausalLM } from './load-causal-lm.js';
import { loadEncoder } from './load-encoder.js';

const fixture = (path: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/${path}/`, import.meta.url).pathname);
const BERT = fixture('families/bert');
const QWEN2 = fixture('decoders/qwen2');
beforeAll(() => useBackend('cpu'));

describe('the loaders, the encoder inputs and generate check every option', () => {
  it('refuses onNotice, checkFinite and backend of the wrong kind before reading anything', async () => {
    await expect(loadEncoder(BERT, { onNotice: 'x' as never })).rejects.toThrow(/^loadEncoder: 'onNotice' must be a function/);
    await expect(loadCausalLM(QWEN2, { checkFinite: null as never })).rejects.toThrow(/^loadCausalLM: 'checkFinite' must be true or false; received null/);
    await expect(loadEncoder(BERT, { backend: {} as never })).rejects.toThrow(InvalidArgumentError);
  });

  it('refuses encoder inputs that are no object and output flags that are not booleans, leaving no tensor', async () => {
    const model = await loadEncoder(BERT);
    const before = memory().numTensors;
    try {
      expect(() => model.forward(null as never)).toThrow(/'inputs' must be an object \{ inputIds, attentionMask\?, tokenTypeIds\?, outputAttentions\?, outputHiddenStates\? \}; received null/);
      expect(() => model.forward({ inputIds: [[2, 5, 3]], outputAttentions: 'x' as never })).toThrow(/'outputAttentions' must be true or false/);
      expect(() => model.forward({ inputIds: [[2, 5, 3]], outputHiddenStates: 1 as never })).toThrow(/'outputHiddenStates' must be true or false/);
      expect(memory().numTensors).toBe(before);
    } finally {
      model.dispose();
    }
  });

  it('refuses a null sampling number in generate (as a null topK already was)', async () => {
    const model = await loadCausalLM(QWEN2);
    try {
      await expect(model.generate([1, 2], { doSample: true, temperature: null as never })).rejects.toThrow(/^Qwen2ForCausalLM\.generate: 'temperature' must be a finite number > 0; received null/);
      await expect(model.generate([1, 2], { repetitionPenalty: null as never })).rejects.toThrow(/'repetitionPenalty' must be a finite number > 0 \(1: off\); received null/);
    } finally {
      model.dispose();
    }
  });
});
