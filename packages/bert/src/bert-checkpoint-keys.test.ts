import { describe, expect, it } from 'vitest';
import { bertCheckpointKeys } from './bert-checkpoint-keys.js';

describe('bertCheckpointKeys', () => {
  it('drops the bert. prefix, renames legacy gamma/beta, ignores buffers and lists heads', () => {
    const read = bertCheckpointKeys([
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
    const read = bertCheckpointKeys(['bert.pooler.dense.weight', 'pooler.dense.weight', 'embeddings.LayerNorm.weight', 'embeddings.LayerNorm.gamma']);
    expect(read.duplicates).toEqual([
      ['pooler.dense.weight', ['bert.pooler.dense.weight', 'pooler.dense.weight']],
      ['embeddings.LayerNorm.weight', ['embeddings.LayerNorm.weight', 'embeddings.LayerNorm.gamma']],
    ]);
  });
});
