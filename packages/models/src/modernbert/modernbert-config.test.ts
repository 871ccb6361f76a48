import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import fixture from '@attnkit/reference/fixtures/modernbert.json' with { type: 'json' };
import meanConfig from '@attnkit/reference/fixtures/modernbert/mean/config.json' with { type: 'json' };
import { parseEncoderConfig } from '../encoder/parse-encoder-config.js';
import { parseModernBertConfig } from './modernbert-config.js';

const base = { model_type: 'modernbert', vocab_size: 100, hidden_size: 32, intermediate_size: 32, num_hidden_layers: 4, num_attention_heads: 4, pad_token_id: 0 };

describe('parseModernBertConfig', () => {
  it('reads a folder saved by transformers 5.17 (layer_types, rope_parameters by layer type, every bias)', () => {
    const config = parseModernBertConfig(meanConfig);
    expect(config).toMatchObject({
      modelType: 'modernbert', hiddenSize: 32, numHiddenLayers: 3, layerNormEps: 1e-5, hiddenAct: 'gelu_new', typeVocabSize: 0, positionOffset: 0, maxSequenceLength: 64,
      layerTypes: ['full_attention', 'sliding_attention', 'full_attention'], localAttention: 5,
      normBias: true, attentionBias: true, mlpBias: true, classifierBias: true, decoderBias: true, classifierPooling: 'mean', classifierActivation: 'silu',
      hiddenDropoutProb: 0, attentionProbsDropoutProb: 0, embeddingDropout: 0,
    });
    expect(config.globalRotary).toMatchObject({ headDim: 8, ropeType: 'default', ropeTheta: 5000 });
    expect(config.localRotary).toMatchObject({ headDim: 8, ropeType: 'default', ropeTheta: 500 });
    expect(parseEncoderConfig(meanConfig)).toEqual(config);
  });

  it('reads the older format as transformers does (global_attn_every_n_layers, global_rope_theta, local_rope_theta)', () => {
    const { config: json, layer_types: layerTypes, global_rope_theta: globalTheta, local_rope_theta: localTheta, sliding_window: half } = fixture.legacy_config;
    const config = parseModernBertConfig(json);
    expect(config.layerTypes).toEqual(layerTypes);
    expect(config.globalRotary.ropeTheta).toBe(globalTheta);
    expect(config.localRotary.ropeTheta).toBe(localTheta);
    expect(Math.floor(config.localAttention / 2)).toBe(half);
  });

  it("has transformers' defaults: a global layer every 3, thetas 160000 and 10000, no biases, cls pooling", () => {
    const config = parseModernBertConfig({ ...base, num_hidden_layers: 22 });
    expect(config.layerTypes).toEqual(fixture.defaults.layer_types_22);
    expect([config.globalRotary.ropeTheta, config.localRotary.ropeTheta]).toEqual([fixture.defaults.global_rope_theta, fixture.defaults.local_rope_theta]);
    expect(config).toMatchObject({ localAttention: 128, normBias: false, attentionBias: false, mlpBias: false, classifierBias: false, classifierPooling: 'cls', classifierActivation: 'gelu', hiddenAct: 'gelu', layerNormEps: 1e-5, maxPositionEmbeddings: 8192 });
  });

  it('ignores what transformers ignores at inference (flash-attention settings, sparse prediction)', () => {
    expect(() => parseModernBertConfig({ ...base, deterministic_flash_attn: true, sparse_prediction: true, sparse_pred_ignore_index: -100, reference_compile: null, repad_logits_with_grad: false })).not.toThrow();
  });

  it.each<[string, Record<string, unknown>, string, string | RegExp]>([
    ['an unknown layer type', { layer_types: ['full_attention', 'chunked_attention', 'full_attention', 'sliding_attention'] }, 'layer_types[1]', '"full_attention" or "sliding_attention"'],
    ['layer_types of another length', { layer_types: ['full_attention'] }, 'layer_types', 'a list of num_hidden_layers = 4 layer types'],
    ['an odd head width (rotary turns pairs)', { hidden_size: 36 }, 'hidden_size / num_attention_heads', /even/],
    ['heads that do not divide the width', { num_attention_heads: 5 }, 'hidden_size', 'divisible by num_attention_heads = 5'],
    ['a zero global_attn_every_n_layers', { global_attn_every_n_layers: 0 }, 'global_attn_every_n_layers', 'a positive integer'],
    ['a zero local_attention', { local_attention: 0 }, 'local_attention', 'a positive integer'],
    ['a negative global_rope_theta', { global_rope_theta: -1 }, 'global_rope_theta', 'a finite number > 0'],
    ['an unknown rope_type', { rope_parameters: { full_attention: { rope_type: 'longrope', rope_theta: 1e4 } } }, 'rope_parameters.full_attention.rope_type', /one of 'default'/],
    ['rope_parameters not by layer type', { rope_parameters: { rope_type: 'default', rope_theta: 1e4 } }, 'rope_parameters', /by layer type/],
    ['rope_scaling', { rope_scaling: { rope_type: 'linear', factor: 2 } }, 'rope_scaling', /absent/],
    ['an unknown classifier_pooling', { classifier_pooling: 'max' }, 'classifier_pooling', '"cls" or "mean"'],
    ['an unknown hidden_activation', { hidden_activation: 'geglu' }, 'hidden_activation', /^one of "gelu"/],
    ['an unknown classifier_activation', { classifier_activation: 'swish2' }, 'classifier_activation', /^one of "gelu"/],
    ['a string norm_bias', { norm_bias: 'false' }, 'norm_bias', 'true or false'],
    ['a zero norm_eps', { norm_eps: 0 }, 'norm_eps', 'a number in (0, 1)'],
    ['a dropout of 1', { mlp_dropout: 1 }, 'mlp_dropout', 'a probability in [0, 1)'],
    ['the default pad id outside a small vocabulary', { pad_token_id: undefined }, 'pad_token_id', 'an id in [0, vocab_size = 100)'],
    ['another model type', { model_type: 'bert' }, 'model_type', '"modernbert"'],
  ])('refuses %s with a typed error naming the key', (_, change, argument, expected) => {
    const error = thrown(() => parseModernBertConfig({ ...base, ...change })) as InvalidArgumentError;
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(new RegExp(`^parseModernBertConfig: '${argument.replace(/[[\]./]/g, '\\$&')}' must be `));
    if (typeof expected === 'string') expect(error.expected).toBe(expected);
    else expect(error.expected).toMatch(expected);
  });

  it('refuses a config past the size attnkit builds, counting the gated MLP', () => {
    expect(() => parseModernBertConfig({ ...base, hidden_size: 8192, intermediate_size: 8192 * 4, num_hidden_layers: 4, num_attention_heads: 64 })).toThrow(/parameters/);
  });
});
