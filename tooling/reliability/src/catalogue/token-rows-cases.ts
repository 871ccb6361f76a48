import { ones, tensor, tidy, zeros } from '@tensorflow/tfjs-core';
import { fusedAttentionTokens, fusedQkvAttention } from '@attnkit/kernels';
import { Int8Linear, Linear, int8QkvProjection } from '@attnkit/nn';
import { attempt, rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
function withTriple<T>(use: (q: Int8Linear, k: Int8Linear, v: Int8Linear) => T): T {
  const layers = [1, 2, 3].map((seed) => {
    const linear = new Linear(8, 4, { seed });
    try { return Int8Linear.fromLinear(linear); } finally { linear.dispose(); }
  }) as [Int8Linear, Int8Linear, Int8Linear];
  try { return tidy(() => use(...layers) as never) as T; } finally { layers.forEach((l) => l.dispose()); }
}

/** Attention on token rows (a fused q/k/v projection read where it lies) and the int8 q/k/v product: shapes, head counts, masks, non-finite values. */
export const tokenRowsCases: CatalogueCase[] = [
  rejects('attention', 'fused qkv whose width is not 3 · heads · D', E, "fusedQkvAttention: 'qkv' must be a last dimension 3·H·D divisible by 3 · numHeads = 12; received [2, 5, 18].", () => attempt(() => fusedQkvAttention(zeros([2, 5, 18]), 4))),
  rejects('attention', 'fused qkv of rank 2', E, /^fusedQkvAttention: 'qkv' must be .*rank 3/, () => attempt(() => fusedQkvAttention(zeros([5, 18]), 3))),
  rejects('attention', 'fused qkv with numHeads 0', E, /^fusedQkvAttention: 'numHeads' must be an integer ≥ 1/, () => attempt(() => fusedQkvAttention(zeros([1, 2, 6]), 0))),
  rejects('attention', 'fused qkv with a [B, S] mask', E, /^fusedQkvAttention: 'mask' must be a bool tensor of rank 4/, () => attempt(() => fusedQkvAttention(zeros([2, 5, 18]), 3, { mask: ones([2, 5], 'bool') }))),
  rejects('attention', 'token rows: key of another width', E, /^fusedAttentionTokens: 'key' must be \[B, S, H·D\] with B, H·D = 2, 8 \(from 'query'\); received \[2, 5, 6\]\./, () => attempt(() => fusedAttentionTokens(zeros([2, 4, 8]), zeros([2, 5, 6]), zeros([2, 5, 8]), 2))),
  rejects('attention', 'token rows: value of another length', E, /^fusedAttentionTokens: 'value' must be \[B, S, H·Dv\] with B, S = 2, 5/, () => attempt(() => fusedAttentionTokens(zeros([2, 4, 8]), zeros([2, 5, 8]), zeros([2, 6, 8]), 2))),
  safely('attention', 'fused qkv with NaN in one key', 'NaN in the rows that attend to that key, as PyTorch; never a finite wrong number', () => tidy(() => {
    const qkv = tensor(Array.from({ length: 2 * 3 * 4 }, (_, i) => (i === 3 * 4 + 4 ? Number.NaN : Math.sin(i))), [1, 2, 12]); // token 1's key is NaN
    return Array.from(fusedQkvAttention(qkv, 1).dataSync());
  }), (v) => (v as number[]).every(Number.isNaN), { nonFinite: true }),
  rejects('nn', 'int8 q/k/v product with a float Linear among them', E, /^int8QkvProjection: 'query, key, value' must be three live Int8Linear layers in eval mode/, () => withTriple((q, k) => { const float = new Linear(8, 4); try { return int8QkvProjection(q, k, float as never, zeros([2, 8])); } finally { float.dispose(); } })),
  rejects('nn', 'int8 q/k/v product on an input of another width', E, "int8QkvProjection: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 8; received [2, 5].", () => withTriple((q, k, v) => int8QkvProjection(q, k, v, zeros([2, 5])))),
  rejects('nn', 'int8 q/k/v product with NaN in the input', E, /^int8MatMul: 'x' must be finite values only/, () => withTriple((q, k, v) => int8QkvProjection(q, k, v, tensor([[1, 2, 3, Number.NaN, 5, 6, 7, 8]])))),
];
