import { describe, expect, it } from 'vitest';
import { isNoDecayParameter } from './no-decay.js';

describe('isNoDecayParameter', () => {
  it.each([
    ['embeddings.LayerNorm.weight', true],
    ['encoder.layer.0.attention.self.query.bias', true],
    ['encoder.layer.0.output.LayerNorm.bias', true],
    ['model.norm.weight', true],
    ['layers.0.input_layernorm.weight', true],
    ['layers.0.post_attention_norm.weight', true],
    ['model.rmsnorm.weight', true],
    ['norm.weight', true],
    ['encoder.layer.0.attention.self.query.weight', false],
    ['embeddings.word_embeddings.weight', false],
    ['normalizer.weight', false],
    ['dense.weight', false],
  ])('%s → %s (transformers Trainer.get_decay_parameter_names)', (name, expected) => {
    expect(isNoDecayParameter(name)).toBe(expected);
  });
});
