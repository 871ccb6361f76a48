import { ones, tensor, tidy, zeros } from '@tensorflow/tfjs-core';
import { assertFinite } from '@attnkit/errors';
import { DecoderAttention, HeadProjection, KvCache, MultiHeadAttention, applyRotary, groupedQueryAttention, rotaryConfigFromHuggingFace, rotaryFrequencies, scaledDotProductAttention } from '@attnkit/attention';
import { arrayOf, attempt, rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
function withLayer<T>(config: ConstructorParameters<typeof MultiHeadAttention>[0], use: (mha: MultiHeadAttention) => T): T {
  const mha = new MultiHeadAttention(config);
  try { return tidy(() => use(mha) as never) as T; } finally { mha.dispose(); }
}

/** Attention: configs, shapes, masks, checkpoints and PyTorch state dicts, non-finite inputs. */
export const attentionCases: CatalogueCase[] = [
  rejects('attention', 'embedDim not divisible by numHeads', E, /^MultiHeadAttention: 'embedDim' must be divisible by numHeads = 4; received embedDim=10\./, () => new MultiHeadAttention({ embedDim: 10, numHeads: 4 })),
  rejects('attention', 'numHeads 0', E, "MultiHeadAttention: 'numHeads' must be an integer ≥ 1; received number 0.", () => new MultiHeadAttention({ embedDim: 8, numHeads: 0 })),
  rejects('attention', 'dropout 1.5', E, "MultiHeadAttention: 'dropout' must be a rate in [0, 1); received number 1.5.", () => new MultiHeadAttention({ embedDim: 8, numHeads: 2, dropout: 1.5 })),
  rejects('attention', 'key and value lengths differ', E, /^MultiHeadAttention\.forward: 'value' must be as many positions as 'key' \(S = 7\)/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forward(zeros([2, 5, 8]), zeros([2, 7, 8]), zeros([2, 6, 8])))),
  rejects('attention', 'batch sizes differ', E, /^MultiHeadAttention\.forward: 'key' must be the batch size of 'query' \(2\) on axis 0/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forward(zeros([2, 5, 8]), zeros([3, 7, 8]), zeros([3, 7, 8])))),
  rejects('attention', 'query of the wrong width', E, "MultiHeadAttention.forward: 'query' must be a last dim of embedDim = 8; received [2, 5, 6].", () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forward(zeros([2, 5, 6])))),
  rejects('attention', 'unknown returnWeights', E, "MultiHeadAttention.forward: 'returnWeights' must be 'none', 'per-head' or 'averaged'; received mean.", () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forward(zeros([2, 5, 8]), undefined, undefined, { returnWeights: 'mean' as never }))),
  rejects('attention', '[B, S] attention mask', E, /whose dimension 0 \(T\) is 2, expected 1 or 5\. A \[B, S\] padding mask must be expanded/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forward(zeros([2, 5, 8]), zeros([2, 7, 8]), zeros([2, 7, 8]), { attentionMask: ones([2, 7], 'bool') }))),
  rejects('attention', 'PyTorch attn_mask [S, T]', E, "MultiHeadAttention.forwardTorch: 'attnMask' must be [T, S] = [4, 6]; received [6, 4].", () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forwardTorch(zeros([2, 4, 8]), zeros([2, 6, 8]), zeros([2, 6, 8]), { attnMask: ones([6, 4], 'bool') }))),
  rejects('attention', 'checkpoint: a misspelled, a missing and a mis-shaped weight', 'StateDictError',
    'MultiHeadAttention: the state dict does not fit the module. 3 missing: in_proj_bias, out_proj.weight, out_proj.bias. 1 unexpected: out_proj.weigth. 1 mis-shaped: in_proj_weight (expected [24, 8] float32, received [8, 24] float32). For its config, this MultiHeadAttention has in_proj_weight [24, 8], in_proj_bias [24], out_proj.weight [8, 8], out_proj.bias [8].',
    () => attempt(() => new MultiHeadAttention({ embedDim: 8, numHeads: 2 }, { in_proj_weight: zeros([8, 24]), 'out_proj.weigth': zeros([8, 8]) }))),
  rejects('attention', 'head projection checkpoint with a bias and bias: false', 'StateDictError',
    'HeadProjection: the state dict does not fit the module. 1 unexpected: linear.bias. For its config, this HeadProjection has linear.weight [6, 4].',
    () => attempt(() => new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, bias: false }, { 'linear.weight': zeros([6, 4]), 'linear.bias': zeros([6]) }))),
  rejects('attention', "config with the old 'weights' option", E, /^MultiHeadAttention: 'config' must be an object with only the keys embedDim, .*; received the unknown key 'weights'\.$/,
    () => attempt(() => new MultiHeadAttention({ embedDim: 8, numHeads: 2, weights: { in_proj_weight: zeros([24, 8]) } } as never))),
  rejects('attention', 'state dict missing out_proj.weight', E, /^MultiHeadAttention\.fromTorchStateDict: 'stateDict' must be an nn\.MultiheadAttention state dict with 'out_proj\.weight'/, () => attempt(() => MultiHeadAttention.fromTorchStateDict({ in_proj_weight: zeros([24, 8]) }, { numHeads: 2 }))),
  rejects('attention', 'state dict with add_bias_kv weights', E, /received unexpected bias_k \(attnkit has no such weight; add_bias_kv and add_zero_attn are not supported\)\.$/, () => attempt(() => MultiHeadAttention.fromTorchStateDict({ in_proj_weight: zeros([24, 8]), in_proj_bias: zeros([24]), 'out_proj.weight': zeros([8, 8]), 'out_proj.bias': zeros([8]), bias_k: zeros([1, 1, 8]) }, { numHeads: 2 }))),
  rejects('attention', 'value of another length (SDPA)', E, /^scaledDotProductAttention: 'value' must be \[B, H, S, Dv\] with B, H, S = 2, 3, 6/, () => attempt(() => scaledDotProductAttention(zeros([2, 3, 4, 8]), zeros([2, 3, 6, 8]), zeros([2, 3, 5, 8])))),
  rejects('attention', 'unknown rope_type', E, "rotaryFrequencies: 'ropeType' must be one of 'default', 'linear', 'dynamic', 'llama3', 'yarn' (the rope_types attnkit implements); received string 'longrope'.", () => rotaryFrequencies({ headDim: 8, ropeType: 'longrope' as never })),
  rejects('attention', 'llama3 rope_scaling without low_freq_factor (config.json)', E, "rotaryConfigFromHuggingFace: 'rope_scaling.low_freq_factor' must be a finite number > 0 (rope_type 'llama3' needs it); received undefined.", () => rotaryConfigFromHuggingFace({ head_dim: 8, rope_scaling: { rope_type: 'llama3', factor: 8, high_freq_factor: 4, original_max_position_embeddings: 64 } })),
  rejects('attention', 'rotary tables of an odd width', E, /^applyRotary: 'cos' must be \[B, T, R\] with B, T = 1, 2 and R even, 2 ≤ R ≤ D = 4; received \[1, 2, 3\]\./, () => attempt(() => applyRotary(zeros([1, 2, 2, 4]), zeros([1, 1, 2, 4]), zeros([1, 2, 3]), zeros([1, 2, 3])))),
  rejects('attention', 'key/value heads that do not divide the query heads', E, /^groupedQueryAttention: 'key' must be \[B, Hkv, S, D\] with B = 1, D = 4 \(from 'query'\) and Hkv dividing H = 4; received \[1, 3, 5, 4\]\./, () => attempt(() => groupedQueryAttention(zeros([1, 4, 2, 4]), zeros([1, 3, 5, 4]), zeros([1, 3, 5, 4])))),
  rejects('attention', 'decoder attention with numKeyValueHeads 3 of 4 heads', E, "DecoderAttention: 'numKeyValueHeads' must be a divisor of numHeads = 4; received numKeyValueHeads=3.", () => new DecoderAttention({ embedDim: 16, numHeads: 4, numKeyValueHeads: 3 })),
  rejects('attention', 'KV cache step past maxLength', E, "KvCache.step: 'tokenMask' must be at most maxLength − length = 4 − 0 = 4 new positions; received 5 ([1, 5]). Create the KvCache with a larger maxLength; nothing is dropped to make room.", () => { const cache = new KvCache({ numLayers: 1, maxLength: 4 }); try { cache.step([[1, 1, 1, 1, 1]]); } finally { cache.dispose(); } }),
  rejects('attention', 'KV cache used after dispose()', 'UseAfterDisposeError', 'KvCache.step: called after dispose() freed its weights. Create a new instance instead.', () => { const cache = new KvCache({ numLayers: 1, maxLength: 4 }); cache.dispose(); cache.step([[1]]); }),
  rejects('attention', 'NaN in an input checked with assertFinite', E, "pipeline: 'query' must be finite values only; received 1 NaN or infinite value(s), the first (NaN) at flat index 1.", async () => {
    const q = tensor([[[1, NaN]]]);
    try { await assertFinite(q, 'pipeline', 'query'); } finally { q.dispose(); }
  }),
  safely('attention', 'Infinity in the query (unchecked)', 'NaN in the affected outputs, as PyTorch; never a finite wrong number (assertFinite checks inputs)', async () => { const mha = new MultiHeadAttention({ embedDim: 4, numHeads: 1, seed: 1 }); try { return ((await arrayOf(() => mha.forward(tensor([[[Infinity, 0, 0, 0], [1, 2, 3, 4]]])).output)) as number[][][]).flat(2); } finally { mha.dispose(); } }, (v) => (v as number[]).some(Number.isNaN), { nonFinite: true }),
];

/**
 * Cases whose check runs on cpu and wasm only (the 0/1 float-mask check reads the mask back, which
 * attnkit skips on webgl and webgpu): Node runs them on both; Chromium leaves them out.
 */
export const cpuResidentAttentionCases: CatalogueCase[] = [
  rejects('attention', 'PyTorch key_padding_mask of 1 (keep) and 0 (pad) as floats', E, /^MultiHeadAttention.forwardTorch: 'keyPaddingMask' must be a bool mask \(true = padding\) or a float mask added to the scores .*received a float32 mask of only 0 and 1 \(both present\)/, () => withLayer({ embedDim: 8, numHeads: 2, seed: 1 }, (m) => m.forwardTorch(zeros([2, 4, 8]), zeros([2, 6, 8]), zeros([2, 6, 8]), { keyPaddingMask: tensor([[1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 1, 1]]) }))),
];
