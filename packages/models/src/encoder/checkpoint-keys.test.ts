import { describe, expect, it } from 'vitest';
import { checkpointKeys } from './checkpoint-keys.js';

describe('checkpointKeys', () => {
  it('drops the bert. prefix, renames legacy gamma/beta, ignores buffers and lists heads', () => {
    const read = checkpointKeys([
      'bert.embeddings.LayerNorm.gamma', 'bert.encoder.layer.0.output.LayerNorm.beta', 'pooler.dense.weight',
      'bert.embeddings.position_ids', 'cls.predictions.bias', 'classifier.weight', 'encoder.layer.0.attention.self.query.gamma',
    ]);
    expect([...read.keys]).toEqual([
      ['bert.embeddings.LayerNorm.gamma', 'embeddings.LayerNorm.weight'],
      ['bert.encoder.layer.0.output.LayerNorm.beta', 'encoder.layer.0.output.LayerNorm.bias'],
      ['pooler.dense.weight', 'pooler.dense.weight'],
      ['encoder.layer.0.attention.self.query.gamma', 'encoder.layer.0.attention.self.query.gamma'], // gamma outside a LayerNorm stays (and is then unexpected)
    ]);
    expect(read.buffers).toEqual(['bert.embeddings.position_ids']);
    expect(read.skipped).toEqual(['cls.predictions.bias', 'classifier.weight']);
    expect(read.duplicates).toEqual([]);
  });

  it('reports names that would fill one parameter instead of picking one', () => {
    const read = checkpointKeys(['bert.pooler.dense.weight', 'pooler.dense.weight', 'embeddings.LayerNorm.weight', 'embeddings.LayerNorm.gamma']);
    expect(read.duplicates).toEqual([
      ['pooler.dense.weight', ['bert.pooler.dense.weight', 'pooler.dense.weight']],
      ['embeddings.LayerNorm.weight', ['embeddings.LayerNorm.weight', 'embeddings.LayerNorm.gamma']],
    ]);
  });
});

describe('checkpointKeys per family', () => {
  it.each<[Parameters<typeof checkpointKeys>[1], string, string]>([
    ['roberta', 'roberta.encoder.layer.0.attention.self.query.weight', 'lm_head.dense.weight'],
    ['xlm-roberta', 'roberta.embeddings.word_embeddings.weight', 'lm_head.decoder.bias'],
    ['distilbert', 'distilbert.transformer.layer.0.attention.q_lin.weight', 'vocab_projector.bias'],
    ['electra', 'electra.embeddings_project.weight', 'discriminator_predictions.dense.weight'],
    ['mpnet', 'mpnet.encoder.relative_attention_bias.weight', 'lm_head.bias'],
  ])('%s: drops its prefix and skips its pre-training head', (modelType, stored, head) => {
    const read = checkpointKeys([stored, head], modelType);
    expect([...read.keys]).toEqual([[stored, stored.slice(stored.indexOf('.') + 1)]]);
    expect(read.skipped).toEqual([head]);
  });

  it("keeps another family's prefix (then reported as unexpected by the load)", () => {
    expect([...checkpointKeys(['bert.pooler.dense.weight'], 'roberta').keys]).toEqual([['bert.pooler.dense.weight', 'bert.pooler.dense.weight']]);
  });
});

describe('checkpointKeys refusals', () => {
  it('refuses a name that is no string, and a modelType that is no string without reading it', () => {
    expect(() => checkpointKeys(['embeddings.word_embeddings.weight', 1 as never])).toThrow("checkpointKeys: 'names' must be an iterable of tensor names (strings); received number 1 among them.");
    expect(() => checkpointKeys([], { toString: () => 'bert' } as never)).toThrow(/^checkpointKeys: 'modelType' must be "bert"/);
  });
});
