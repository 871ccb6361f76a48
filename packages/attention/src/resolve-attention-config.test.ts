import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import type { MultiHeadAttentionConfig } from './multi-head-attention-config.js';
import { resolveAttentionConfig } from './resolve-attention-config.js';

describe('resolveAttentionConfig', () => {
  it('fills PyTorch-like defaults', () => {
    expect(resolveAttentionConfig({ embedDim: 12, numHeads: 3 })).toEqual({
      embedDim: 12, numHeads: 3, headDim: 4, keyDim: 12, valueDim: 12, bias: true, dropout: 0, projections: 'fused', layout: 'batch-first',
    });
    expect(resolveAttentionConfig({ embedDim: 12, numHeads: 3, keyDim: 10 }).projections).toBe('separate');
  });

  it.each<[MultiHeadAttentionConfig, string]>([
    [{ embedDim: 10, numHeads: 4 }, "MultiHeadAttention: 'embedDim' must be divisible by numHeads = 4; received embedDim=10. Each head gets embedDim / numHeads dims; try numHeads = 1, 2."],
    [{ embedDim: 12, numHeads: 0 }, "MultiHeadAttention: 'numHeads' must be an integer ≥ 1; received number 0."],
    [{ embedDim: -4, numHeads: 2 }, "MultiHeadAttention: 'embedDim' must be an integer ≥ 1; received number -4."],
    [{ embedDim: 12, numHeads: 3, keyDim: 10, projections: 'fused' }, "MultiHeadAttention: 'projections' must be 'separate' when keyDim or valueDim differ from embedDim (one in_proj_weight needs equal widths); received 'fused' with embedDim=12, keyDim=10, valueDim=12."],
    [{ embedDim: 12, numHeads: 3, projections: 'shared' as never }, "MultiHeadAttention: 'projections' must be 'fused' or 'separate'; received string 'shared'."],
    [{ embedDim: 12, numHeads: 3, dropout: 1.5 }, "MultiHeadAttention: 'dropout' must be a rate in [0, 1); received number 1.5."],
    [{ embedDim: 12, numHeads: 3, layout: 'time-major' as never }, "MultiHeadAttention: 'layout' must be 'batch-first' or 'seq-first'; received string 'time-major'."],
    [{ embedDim: 12, numHeads: 3, bias: 'yes' as never }, "MultiHeadAttention: 'bias' must be true or false; received string 'yes'."],
    [{ embedDim: 12, numHeads: 3, valueDim: 0 }, "MultiHeadAttention: 'valueDim' must be an integer ≥ 1; received number 0."],
  ])('rejects %j', (config, message) => {
    const error = thrown(() => resolveAttentionConfig(config));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
