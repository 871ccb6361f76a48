import { describe, expect, it } from 'vitest';
import { bertWeightTable } from './bert-weight-table.js';
import { parseBertConfig } from './bert-config.js';

describe('bertWeightTable', () => {
  const config = parseBertConfig({ vocab_size: 30522, hidden_size: 768, num_hidden_layers: 12, num_attention_heads: 12, intermediate_size: 3072, max_position_embeddings: 512, type_vocab_size: 2 });
  it('lists the 199 tensors of a bert-base BertModel, with Hugging Face names and shapes', () => {
    const rows = bertWeightTable(config);
    expect(rows).toHaveLength(5 + 12 * 16 + 2);
    expect(new Set(rows.map((r) => r.checkpoint)).size).toBe(rows.length);
    expect(rows.find((r) => r.checkpoint === 'encoder.layer.11.intermediate.dense.weight')?.shape).toEqual([3072, 768]);
    const parameters = rows.reduce((n, r) => n + r.shape.reduce((a, b) => a * b, 1), 0);
    expect(parameters).toBe(109_482_240); // bert-base-uncased BertModel's parameter count
  });
  it('stacks query, key, value (in that order) into the attention in_proj', () => {
    const qkv = bertWeightTable(config).filter((r) => r.module === 'layer.3.attention' && r.variable === 'in_proj_weight');
    expect(qkv.map((r) => [r.checkpoint, r.part])).toEqual([
      ['encoder.layer.3.attention.self.query.weight', 0],
      ['encoder.layer.3.attention.self.key.weight', 1],
      ['encoder.layer.3.attention.self.value.weight', 2],
    ]);
  });
});
