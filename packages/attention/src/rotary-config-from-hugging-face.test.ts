import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { rotaryConfigFromHuggingFace } from './rotary-config-from-hugging-face.js';

describe('rotaryConfigFromHuggingFace', () => {
  it('reads a transformers 5.x config (rope_parameters)', () => {
    expect(rotaryConfigFromHuggingFace({ head_dim: 128, max_position_embeddings: 131072, rope_parameters: { rope_type: 'llama3', rope_theta: 500000, factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } })).toEqual({
      headDim: 128, maxPositionEmbeddings: 131072, ropeType: 'llama3', ropeTheta: 500000, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192,
    });
  });

  it("reads a 4.x config (rope_scaling with the old 'type', top-level rope_theta), head_dim from hidden_size / num_attention_heads, null as absent", () => {
    expect(rotaryConfigFromHuggingFace({ hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1000000, head_dim: null, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768, attention_factor: null } })).toEqual({
      headDim: 128, maxPositionEmbeddings: 32768, ropeType: 'yarn', ropeTheta: 1000000, factor: 4, originalMaxPositionEmbeddings: 32768,
    });
    expect(rotaryConfigFromHuggingFace({ hidden_size: 64, num_attention_heads: 4, rope_scaling: null, partial_rotary_factor: 0.5 })).toEqual({ headDim: 16, partialRotaryFactor: 0.5 });
  });

  it('takes a top-level original_max_position_embeddings over the dict (Phi-3), and only for the types that read it', () => {
    expect(rotaryConfigFromHuggingFace({ head_dim: 8, max_position_embeddings: 64, original_max_position_embeddings: 16, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32 } }).originalMaxPositionEmbeddings).toBe(16);
    expect(rotaryConfigFromHuggingFace({ head_dim: 8, original_max_position_embeddings: 16 })).toEqual({ headDim: 8 });
  });

  it('picks one rope dict per layer type with layerType', () => {
    const config = { head_dim: 8, rope_parameters: { full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 }, sliding_attention: { rope_type: 'default', rope_theta: 10000 } } };
    expect(rotaryConfigFromHuggingFace(config, { layerType: 'full_attention' })).toEqual({ headDim: 8, ropeType: 'linear', factor: 8, ropeTheta: 1000000 });
    expect(thrown(() => rotaryConfigFromHuggingFace(config, { layerType: 'global' })).message).toBe("rotaryConfigFromHuggingFace: 'layerType' must be a layer type that rope_parameters has (full_attention, sliding_attention); received string 'global'.");
  });

  it.each([
    [{ head_dim: 8, rope_scaling: { rope_type: 'linear', factor: 2, finetuned: true } }, /^rotaryConfigFromHuggingFace: 'rope_scaling\.finetuned' must be absent: transformers reads rope_type, rope_theta, .* from rope_scaling; received boolean true\.$/],
    [{ head_dim: 8, rope_scaling: { rope_type: 'llama3', factor: 8, high_freq_factor: 4, original_max_position_embeddings: 64 } }, "rotaryConfigFromHuggingFace: 'rope_scaling.low_freq_factor' must be a finite number > 0 (rope_type 'llama3' needs it); received undefined."],
    [{ head_dim: 8, rope_parameters: { rope_type: 'dynamic', factor: 2 } }, "rotaryConfigFromHuggingFace: 'max_position_embeddings' must be an integer ≥ 1 (rope_type 'dynamic' scales past it); received undefined."],
    [{ head_dim: 8, rope_parameters: { rope_type: 'longrope', short_factor: [1], long_factor: [1] } }, /^rotaryConfigFromHuggingFace: 'rope_parameters\.short_factor' must be absent/],
    [{ head_dim: 8, rope_parameters: { rope_type: 'longrope' } }, /^rotaryConfigFromHuggingFace: 'rope_parameters\.rope_type' must be one of 'default', 'linear', 'dynamic', 'llama3', 'yarn'/],
    [{ head_dim: 8, rope_scaling: { rope_type: 'linear', factor: '4' } }, "rotaryConfigFromHuggingFace: 'rope_scaling.factor' must be a finite number ≥ 1; received string '4'."],
    [{ hidden_size: 64 }, "rotaryConfigFromHuggingFace: 'num_attention_heads' must be an integer ≥ 1; received undefined."],
    [{ head_dim: 8, rope_scaling: 'linear' }, /^rotaryConfigFromHuggingFace: 'rope_scaling' must be an object of rope parameters/],
  ])('refuses %j with a typed error naming the config.json key', (config, message) => {
    const error = thrown(() => rotaryConfigFromHuggingFace(config as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });
});
