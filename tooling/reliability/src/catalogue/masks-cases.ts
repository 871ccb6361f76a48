import { ones, tensor, tensor1d, tidy, zeros } from '@tensorflow/tfjs-core';
import { causalMask, decoderMask, fromAdditiveMask, maskToBias, maskedSoftmax, mergeMasks, paddingMask, paddingMaskFromIds, slidingWindowCausalMask, validateMask } from '@attnkit/masks';
import { arrayOf, rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
const target = { batch: 2, heads: 4, queryLength: 5, keyLength: 7 };

/** Masks: wrong ranks, dtypes, lengths and shapes; fully masked rows. */
export const masksCases: CatalogueCase[] = [
  rejects('masks', 'negative sequence length', E, "paddingMask: 'lengths[1]' must be an integer from 0 to keyLength = 3; received number -1.", () => paddingMask([2, -1], 3)),
  rejects('masks', 'length longer than the keys', E, /^paddingMask: 'lengths\[0\]' must be an integer from 0 to keyLength = 3; received number 9\. Pad the keys/, () => paddingMask([9], 3)),
  rejects('masks', 'keyLength 0', E, "paddingMask: 'keyLength' must be an integer ≥ 1; received number 0.", () => paddingMask([1], 0)),
  rejects('masks', 'float lengths tensor', E, "paddingMask: 'lengths' must be an int32 tensor of rank 1 [B]; received float32 tensor of rank 1 [2].", () => tidy(() => paddingMask(tensor1d([1, 2]), 3))),
  rejects('masks', 'empty batch of lengths', E, "paddingMask: 'lengths' must be at least one length (B ≥ 1); received an empty list.", () => paddingMask([], 3)),
  rejects('masks', 'attention_mask value 2', E, "paddingMaskFromIds: 'attentionMask[0][1]' must be 0 (padding) or 1 (token); received number 2.", () => paddingMaskFromIds([[1, 2]])),
  rejects('masks', 'causal mask of length 0', E, "causalMask: 'queryLength' must be an integer ≥ 1; received number 0.", () => causalMask(0, 3)),
  rejects('masks', 'fractional causal offset', E, "causalMask: 'offset' must be an integer; received number 0.5.", () => causalMask(3, 3, { offset: 0.5 })),
  rejects('masks', 'sliding window of 0', E, "slidingWindowCausalMask: 'slidingWindow' must be an integer ≥ 1; received number 0.", () => slidingWindowCausalMask(4, 4, 0)),
  rejects('masks', 'decoder mask given a [B, 1, 1, S] padding of another length', E, /^decoderMask: 'padding' must be a key padding mask \[B, 1, 1, S\] with S = keyLength = 5; received \[2, 1, 1, 4\]\. Build it with paddingMaskFromIds/, () => tidy(() => decoderMask(1, 5, { padding: ones([2, 1, 1, 4], 'bool') }))),
  safely('masks', 'left-padded decoder mask', 'padded query rows allow no key (attention gives them zeros); token rows see tokens only', () => arrayOf(() => decoderMask(3, 3, { padding: paddingMaskFromIds([[0, 1, 1]]) })), (v) => JSON.stringify(v) === '[[[[0,0,0],[0,1,0],[0,1,1]]]]'),
  rejects('masks', 'float mask given to mergeMasks', E, /^mergeMasks: 'masks\[1\]' must be a bool tensor; received float32 tensor of rank 2 \[1, 2\]\. attnkit masks are bool/, () => tidy(() => mergeMasks(ones([1, 2], 'bool'), zeros([1, 2])))),
  rejects('masks', 'masks that do not broadcast', E, /^mergeMasks: 'masks' must be shapes that broadcast .* received \[2, 1, 1, 3\] and \[3, 1, 1, 3\], which differ at axis -4 \(2 vs 3\)\.$/, () => tidy(() => mergeMasks(ones([2, 1, 1, 3], 'bool'), ones([3, 1, 1, 3], 'bool')))),
  rejects('masks', '[B, S] mask where [B, 1, 1, S] is needed', E, /received \[2, 7\], whose dimension 0 \(T\) is 2, expected 1 or 5\. A \[B, S\] padding mask must be expanded to \[B, 1, 1, S\]; use paddingMask\(\)/, () => tidy(() => validateMask(ones([2, 7], 'bool'), target))),
  rejects('masks', '[B, S] padding mask when B == T (would read as [T, S])', E, /^validateMask: 'mask' must be an unambiguous layout: with B = T = 5, a rank-2 \[5, 7\] could be \[T, S\] or a \[B, S\] padding mask/, () => tidy(() => validateMask(ones([5, 7], 'bool'), { ...target, batch: 5 }))),
  rejects('masks', 'rank-5 mask', E, /^validateMask: 'mask' must be rank 2 \[T, S\], rank 3 \[B, T, S\] or rank 4 \[B, H, T, S\]/, () => tidy(() => validateMask(ones([1, 2, 1, 5, 7], 'bool'), target))),
  rejects('masks', 'a seq-first [T, S, B] mask without layout', E, /If this is a seq-first \[T, S, B\] mask \(labml's layout\), pass layout: 'seq-first'\.$/, () => tidy(() => validateMask(ones([5, 7, 2], 'bool'), target))),
  rejects('masks', 'soft bias given as an additive mask', E, /^fromAdditiveMask: 'additive' must be 0 \(attend\) or ≤ -10000 \(blocked\) everywhere; received 0\.5 at flat index 1\./, () => tidy(() => fromAdditiveMask(tensor([0, 0.5])))),
  rejects('masks', 'NaN in an additive mask', E, /^fromAdditiveMask: 'additive' must be 0 .* received NaN at flat index 0\./, () => tidy(() => fromAdditiveMask(tensor([NaN])))),
  rejects('masks', '-Infinity as fill value', E, /^maskToBias: 'fillValue' must be a negative number finite in float32/, () => tidy(() => maskToBias(ones([2], 'bool'), { fillValue: -Infinity }))),
  rejects('masks', 'fill value below float32 (-1e39 rounds to -Infinity)', E, /^maskToBias: 'fillValue' must be a negative number finite in float32/, () => tidy(() => maskToBias(ones([2], 'bool'), { fillValue: -1e39 }))),
  rejects('masks', 'int32 scores', E, /^maskedSoftmax: 'scores' must be a float32 tensor/, () => tidy(() => maskedSoftmax(zeros([2, 4], 'int32')))),
  rejects('masks', 'mask larger than the scores', E, "maskedSoftmax: 'mask' must be broadcastable to the scores' shape [2, 1, 3, 4] without enlarging it; received [2, 2, 3, 4].", () => tidy(() => maskedSoftmax(zeros([2, 1, 3, 4]), ones([2, 2, 3, 4], 'bool')))),
  safely('masks', 'fully masked row, extreme scores', 'zeros (never NaN, never a uniform row)', () => arrayOf(() => maskedSoftmax(tensor([[3e38, -3e38, 0]]), tensor([[false, false, false]], [1, 3], 'bool'))), (v) => JSON.stringify(v) === '[[0,0,0]]'),
  safely('masks', 'sequence of length 0', 'a mask blocking every key of that sequence', () => arrayOf(() => paddingMask([0, 2], 2)), (v) => JSON.stringify(v) === '[[[[0,0]]],[[[1,1]]]]'),
];
