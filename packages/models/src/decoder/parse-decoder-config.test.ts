import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ResourceLimitError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoders.json' with { type: 'json' };
import { parseGpt2Config } from '../gpt2/gpt2-config.js';
import { parseLlamaConfig } from '../llama/llama-config.js';
import { parseQwen2Config } from '../qwen2/qwen2-config.js';
import { parseQwen3Config } from '../qwen3/qwen3-config.js';
import { parseDecoderConfig } from './parse-decoder-config.js';

const NAMES = Object.keys((fixtures as unknown as { cases: Record<string, unknown> }).cases);
const config = (name: string) => JSON.parse(readFileSync(new URL(`../../../../tooling/reference/fixtures/decoders/${name}/config.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('parseDecoderConfig and the family parsers', () => {
  it.each(NAMES)('read the %s config.json transformers wrote', (name) => {
    const c = parseDecoderConfig(config(name));
    expect(c.modelType).toBe(config(name)['model_type']);
    expect([c.hiddenSize, c.numHiddenLayers, c.numAttentionHeads, c.vocabSize]).toEqual([32, 2, 4, 320]);
  });

  it('read each family in Llama\'s words: GPT-2 renames and learned positions, grouped-query heads, biases, q/k norm, sliding windows, tying', () => {
    expect(parseGpt2Config(config('gpt2'))).toMatchObject({ numKeyValueHeads: 4, headDim: 8, intermediateSize: 128, maxPositionEmbeddings: 64, hiddenAct: 'gelu_new', normEps: 1e-5, tieWordEmbeddings: true, attentionBias: true, rotary: undefined, scaleAttnWeights: true, eosTokenIds: [319] });
    expect(parseLlamaConfig(config('llama'))).toMatchObject({ numKeyValueHeads: 2, headDim: 8, attentionBias: false, outputBias: false, mlpBias: false, tieWordEmbeddings: false, queryKeyNorm: false, slidingWindow: undefined, rotary: { headDim: 8, ropeTheta: 10000, ropeType: 'default' }, bosTokenId: 1, eosTokenIds: [2] });
    expect(parseLlamaConfig(config('llama-rope-linear'))).toMatchObject({ attentionBias: true, outputBias: true, mlpBias: true, rotary: { ropeType: 'linear', factor: 2 } });
    expect(parseLlamaConfig(config('llama-rope-llama3')).rotary).toMatchObject({ ropeType: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 16, ropeTheta: 500000 });
    expect(parseLlamaConfig(config('mistral'))).toMatchObject({ modelType: 'mistral', slidingWindow: 8, layerTypes: ['sliding_attention', 'sliding_attention'], attentionBias: false });
    expect(parseQwen2Config(config('qwen2'))).toMatchObject({ attentionBias: true, outputBias: false, layerTypes: ['full_attention', 'full_attention'], slidingWindow: undefined, eosTokenIds: [317], padTokenId: 317 });
    expect(parseQwen3Config(config('qwen3'))).toMatchObject({ headDim: 16, queryKeyNorm: true, attentionBias: false, tieWordEmbeddings: true });
  });

  it('take the defaults of transformers\' config classes: Mistral slides 4096 without the key, Qwen2 slides the layers from max_window_layers', () => {
    const { sliding_window: _, ...mistral } = config('mistral');
    expect(parseLlamaConfig(mistral)).toMatchObject({ slidingWindow: 4096, layerTypes: ['sliding_attention', 'sliding_attention'] });
    expect(parseLlamaConfig({ ...config('mistral'), sliding_window: null })).toMatchObject({ slidingWindow: undefined, layerTypes: ['full_attention', 'full_attention'] });
    const { layer_types: __, ...qwen } = config('qwen2');
    expect(parseQwen2Config({ ...qwen, use_sliding_window: true, sliding_window: 16, max_window_layers: 1 })).toMatchObject({ slidingWindow: 16, layerTypes: ['full_attention', 'sliding_attention'] });
    const gpt2 = parseGpt2Config({ model_type: 'gpt2' });
    expect(gpt2).toMatchObject({ vocabSize: 50257, hiddenSize: 768, numHiddenLayers: 12, intermediateSize: 3072, maxPositionEmbeddings: 1024, bosTokenId: 50256, eosTokenIds: [50256] });
  });

  it.each<[string, () => unknown, string | RegExp]>([
    ['an unsupported model_type, naming the supported ones', () => parseDecoderConfig({ ...config('llama'), model_type: 'phi3' }), 'parseDecoderConfig: \'model_type\' must be one of "gpt2", "llama", "mistral", "qwen2", "qwen3"; received "phi3". docs/models.md lists the decoder families that load; encoders load with loadEncoder.'],
    ['a config without model_type', () => parseDecoderConfig({ hidden_size: 32 }), /^parseDecoderConfig: 'model_type' must be one of .*; received undefined\./],
    ['an unknown rope_type, naming its key', () => parseLlamaConfig({ ...config('llama'), rope_parameters: { rope_type: 'longrope', rope_theta: 10000 } }), "parseLlamaConfig: 'rope_parameters.rope_type' must be one of 'default', 'linear', 'dynamic', 'llama3', 'yarn' (the rope_types attnkit implements); received string 'longrope'."],
    ['a rope key the rope type does not read', () => parseLlamaConfig({ ...config('llama'), rope_parameters: { rope_type: 'linear', factor: 2, beta_fast: 4, rope_theta: 10000 } }), /^parseLlamaConfig: 'rope_parameters\.beta_fast'/],
    ['a partial_rotary_factor', () => parseLlamaConfig({ ...config('llama'), partial_rotary_factor: 0.5 }), "parseLlamaConfig: 'partial_rotary_factor' must be 1 (transformers' llama rotates every dimension of a head); received 0.5."],
    ['key/value heads that do not divide the heads', () => parseQwen3Config({ ...config('qwen3'), num_key_value_heads: 3 }), "parseQwen3Config: 'num_key_value_heads' must be a divisor of num_attention_heads = 4; received 3."],
    ['an unknown hidden_act', () => parseQwen2Config({ ...config('qwen2'), hidden_act: 'swiglu' }), /^parseQwen2Config: 'hidden_act' must be one of "gelu", .*; received "swiglu"\.$/],
    ['a layer type attnkit does not have', () => parseQwen3Config({ ...config('qwen3'), layer_types: ['full_attention', 'chunked_attention'] }), "parseQwen3Config: 'layer_types[1]' must be \"full_attention\" or \"sliding_attention\"; received \"chunked_attention\"."],
    ['sliding layers without a window', () => parseQwen3Config({ ...config('qwen3'), layer_types: ['full_attention', 'sliding_attention'], sliding_window: null }), "parseQwen3Config: 'sliding_window' must be a positive integer (layer_types has sliding_attention layers); received null."],
    ['GPT-2 with cross-attention', () => parseGpt2Config({ ...config('gpt2'), add_cross_attention: true }), "parseGpt2Config: 'add_cross_attention' must be false (attnkit implements the decoder-only GPT-2); received true."],
    ['an eos_token_id outside the vocabulary', () => parseDecoderConfig({ ...config('qwen2'), eos_token_id: [317, 320] }), "parseDecoderConfig: 'eos_token_id[1]' must be a token id in [0, vocab_size = 320); received 320."],
    ['a Qwen3 config read as Llama', () => parseLlamaConfig(config('qwen3')), 'parseLlamaConfig: \'model_type\' must be "llama" or "mistral"; received "qwen3". Other decoder families load with loadCausalLM (parseDecoderConfig).'],
  ])('refuse %s', (_, run, message) => {
    const error = thrown(run);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('refuse, before anything is allocated, a config past 2³¹ parameters or 1 024 layers', () => {
    const huge = thrown(() => parseDecoderConfig({ ...config('llama'), vocab_size: 2 ** 30 }));
    expect(huge).toBeInstanceOf(ResourceLimitError);
    expect(huge.message).toMatch(/^parseDecoderConfig: the 6\.87e\+10 float32 parameters this config describes/);
    expect(thrown(() => parseDecoderConfig({ ...config('llama'), num_hidden_layers: 2000 })).message).toBe("parseDecoderConfig: 'num_hidden_layers' must be at most 1024 layers; received 2000.");
  });
});
