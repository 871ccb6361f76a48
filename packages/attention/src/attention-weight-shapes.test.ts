import { describe, expect, it } from 'vitest';
import { attentionWeightShapes } from './attention-weight-shapes.js';
import { resolveAttentionConfig } from './resolve-attention-config.js';

describe('attentionWeightShapes', () => {
  it("lists nn.MultiheadAttention's parameters with PyTorch's names and layouts", () => {
    expect(attentionWeightShapes(resolveAttentionConfig({ embedDim: 12, numHeads: 3 }))).toEqual({
      in_proj_weight: [36, 12], in_proj_bias: [36], 'out_proj.weight': [12, 12], 'out_proj.bias': [12],
    });
    expect(attentionWeightShapes(resolveAttentionConfig({ embedDim: 12, numHeads: 3, keyDim: 10, valueDim: 6, bias: false }))).toEqual({
      q_proj_weight: [12, 12], k_proj_weight: [12, 10], v_proj_weight: [12, 6], 'out_proj.weight': [12, 12],
    });
  });
});
