import { ones, tensor, tidy, zeros } from '@tensorflow/tfjs-core';
import { assertFinite } from '@attnkit/errors';
import { MultiHeadAttention, scaledDotProductAttention } from '@attnkit/attention';
import { attempt, rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
function withLayer<T>(config: ConstructorParameters<typeof MultiHeadAttention>[0], use: (mha: MultiHeadAttention) => T): T {
  const mha = new MultiHeadAttention(config);
  try { return tidy(() => use(mha) as never) as T; } finally { mha.dispose(); }
}

/** Attention: configs, shapes, masks, PyTorch state dicts, non-finite inputs. */
export const attentionCases: CatalogueCase[] = [
  rejects('attention', 'embedDim not divisible by numHeads', E, /^MultiHeadAttention: 'embedDim' must be divisible by numHeads = 4; received embedDim=10\./, () => new MultiHeadAttention({ embedDim: 10, numHeads: 4 })),
  rejects('attention', 'numHeads 0', E, "MultiHeadAttention: 'numHeads' must be an integer ≥ 1; received number 0.", () => new MultiHeadAttention({ embedDim: 8, numHeads: 0 })),
  rejects('attention', 'dropout 1.5', E, "MultiHeadAttention: 'dropout' must be a rate in [0, 1); received 1.5.", () => new MultiHeadAttention({ embedDim: 8, numHeads: 2, dropout: 1.5 })),
  rejects('attention', 'key and value lengths differ', E, /^MultiHeadAttention\.call: 'value' must be as many positions as 'key' \(S = 7\)/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.call(zeros([2, 5, 8]), zeros([2, 7, 8]), zeros([2, 6, 8])))),
  rejects('attention', 'batch sizes differ', E, /^MultiHeadAttention\.call: 'key' must be the batch size of 'query' \(2\) on axis 0/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.call(zeros([2, 5, 8]), zeros([3, 7, 8]), zeros([3, 7, 8])))),
  rejects('attention', 'query of the wrong width', E, "MultiHeadAttention.call: 'query' must be a last dim of embedDim = 8; received [2, 5, 6].", () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.call(zeros([2, 5, 6])))),
  rejects('attention', 'unknown returnWeights', E, "MultiHeadAttention.call: 'returnWeights' must be 'none', 'per-head' or 'averaged'; received mean.", () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.call(zeros([2, 5, 8]), undefined, undefined, { returnWeights: 'mean' as never }))),
  rejects('attention', '[B, S] attention mask', E, /whose dimension 0 \(T\) is 2, expected 1 or 5\. A \[B, S\] padding mask must be expanded/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.call(zeros([2, 5, 8]), zeros([2, 7, 8]), zeros([2, 7, 8]), { attentionMask: ones([2, 7], 'bool') }))),
  rejects('attention', 'PyTorch attn_mask [S, T]', E, "MultiHeadAttention.callTorch: 'attnMask' must be [T, S] = [4, 6]; received [6, 4].", () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.callTorch(zeros([2, 4, 8]), zeros([2, 6, 8]), zeros([2, 6, 8]), { attnMask: ones([6, 4], 'bool') }))),
  rejects('attention', 'state dict missing out_proj.weight', E, /^MultiHeadAttention\.fromTorchStateDict: 'stateDict' must be an nn\.MultiheadAttention state dict with 'out_proj\.weight'/, () => attempt(() => MultiHeadAttention.fromTorchStateDict({ in_proj_weight: zeros([24, 8]) }, { numHeads: 2 }))),
  rejects('attention', 'state dict with add_bias_kv weights', E, /received unexpected bias_k \(attnkit has no such weight; add_bias_kv and add_zero_attn are not supported\)\.$/, () => attempt(() => MultiHeadAttention.fromTorchStateDict({ in_proj_weight: zeros([24, 8]), in_proj_bias: zeros([24]), 'out_proj.weight': zeros([8, 8]), 'out_proj.bias': zeros([8]), bias_k: zeros([1, 1, 8]) }, { numHeads: 2 }))),
  rejects('attention', 'value of another length (SDPA)', E, /^scaledDotProductAttention: 'value' must be \[B, H, S, Dv\] with B, H, S = 2, 3, 6/, () => attempt(() => scaledDotProductAttention(zeros([2, 3, 4, 8]), zeros([2, 3, 6, 8]), zeros([2, 3, 5, 8])))),
  rejects('attention', 'NaN in an input checked with assertFinite', E, "pipeline: 'query' must be finite values only; received 1 NaN or infinite value(s), the first (NaN) at flat index 1.", async () => {
    const q = tensor([[[1, NaN]]]);
    try { await assertFinite(q, 'pipeline', 'query'); } finally { q.dispose(); }
  }),
  safely('attention', 'Infinity in the query (unchecked)', 'NaN in the affected outputs, as PyTorch; never a finite wrong number (assertFinite checks inputs)', () => withLayer({ embedDim: 4, numHeads: 1, seed: 1 }, (m) => Array.from(m.call(tensor([[[Infinity, 0, 0, 0], [1, 2, 3, 4]]])).output.dataSync())), (v) => (v as number[]).some(Number.isNaN), { nonFinite: true }),
];
