import { readFileSync } from 'node:fs';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, ResourceLimitError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoders.json' with { type: 'json' };
import { DECODER_FAMILIES } from './decoder-families.js';
import { checkDecoderSize, decoderParameterCount } from './decoder-size.js';
import { parseDecoderConfig } from './parse-decoder-config.js';

const NAMES = Object.keys((fixtures as unknown as { cases: Record<string, unknown> }).cases);
const config = (name: string) => parseDecoderConfig(JSON.parse(readFileSync(new URL(`../../../../tooling/reference/fixtures/decoders/${name}/config.json`, import.meta.url), 'utf8')));
beforeAll(() => useBackend('cpu'));

describe('decoderParameterCount and checkDecoderSize', () => {
  it.each(NAMES)('count the parameters of the %s model built from its config', (name) => {
    const c = config(name);
    const before = memory().numTensors;
    const model = DECODER_FAMILIES[c.modelType].causalLM(c, undefined, { seed: 1 });
    expect(decoderParameterCount(c)).toBe(model.numParameters());
    model.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('counts SmolLM2-135M (tied head, 30 layers of 576, 9 heads, 3 key/value heads) as its model card: 134 515 008', () => {
    const smol = { ...config('llama'), vocabSize: 49152, hiddenSize: 576, numHiddenLayers: 30, numAttentionHeads: 9, numKeyValueHeads: 3, headDim: 64, intermediateSize: 1536, tieWordEmbeddings: true };
    expect(decoderParameterCount(smol)).toBe(134_515_008);
  });

  it('refuses a config past the limits with typed errors, and a non-config', () => {
    expect(thrown(() => checkDecoderSize({ ...config('qwen3'), vocabSize: 2 ** 28 }, 'test'))).toBeInstanceOf(ResourceLimitError);
    expect(thrown(() => checkDecoderSize({ ...config('qwen3'), numHiddenLayers: 1025 }, 'test')).message).toBe("test: 'num_hidden_layers' must be at most 1024 layers; received 1025.");
    expect(thrown(() => decoderParameterCount(null as never))).toBeInstanceOf(InvalidArgumentError);
  });
});
