import { getKernel, tensor, tensor1d, unsortedSegmentSum } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';

describe('wasm UnsortedSegmentSum fill', () => {
  it('registers the kernel tfjs-backend-wasm lacks; sums by id, drops ids out of range, handles rank-3 x', async () => {
    await import('@tensorflow/tfjs-backend-wasm');
    expect(getKernel('UnsortedSegmentSum', 'wasm')).toBeUndefined(); // the upstream gap
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toEqual(['_FusedMatMul', 'UnsortedSegmentSum', 'BatchMatMul', 'Erf', 'Slice', 'SplitV', 'GatherV2', 'AttnkitGelu', 'AttnkitGeluTanh', 'AttnkitLayerNorm', 'Tile', 'AttnkitMaskedSoftmax', 'AttnkitRmsNorm', 'AttnkitSiluMul', 'AttnkitRotaryHeads', 'AttnkitAttentionRows', 'AttnkitKvAppend', 'AttnkitDecodeAttention', 'Identity', 'Transpose', 'Cumsum', 'Sum', 'Prod', 'Mean', 'Max', 'Min', 'All', 'Any', 'ArgMax', 'ArgMin']);
    expect(caps.missingKernels).toEqual(['Einsum']);
    const x = tensor([[[1, 2]], [[3, 4]], [[5, 6]], [[7, 8]]]); // [4, 1, 2]
    const ids = tensor1d([1, 0, 1, 9], 'int32'); // 9 >= numSegments: dropped
    const y = unsortedSegmentSum(x, ids, 3);
    expect([y.shape, await y.array()]).toEqual([[3, 1, 2], [[[3, 4]], [[6, 8]], [[0, 0]]]]);
    expect(await leaksOf(() => unsortedSegmentSum(x, ids, 3).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x, ids, y].forEach((t) => t.dispose());
  });
});
