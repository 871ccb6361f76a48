import { tensor, tidy } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { MultiHeadAttention } from '@attnkit/attention';
import { maskedSoftmax, paddingMask } from '@attnkit/masks';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();

describe.each(BACKENDS)('fully masked rows and all-padding sequences on %s', (backend) => {
  it('give exact zeros, never NaN: maskedSoftmax with extreme scores, and attention weights of an empty sequence', async () => {
    await useBackend(backend);
    const softmaxRow = tidy(() => Array.from(maskedSoftmax(tensor([[30000, -30000, 0, 5]]), tensor([[false, false, false, false]], [1, 4], 'bool')).dataSync()));
    expect(softmaxRow).toEqual([0, 0, 0, 0]);
    const mha = new MultiHeadAttention({ embedDim: 8, numHeads: 2, seed: 3 });
    const { weights, output } = tidy(() => {
      const x = tensor(Array.from({ length: 2 * 4 * 8 }, (_, i) => Math.sin(i)), [2, 4, 8]);
      const result = mha.forward(x, x, x, { attentionMask: paddingMask([4, 0], 4), returnWeights: 'per-head' });
      return { weights: Array.from(result.attentionWeights!.dataSync()), output: Array.from(result.output.dataSync()) };
    });
    expect(weights.slice(2 * 4 * 4)).toEqual(Array(2 * 4 * 4).fill(0)); // second sequence: every weight exactly 0
    expect(output.every(Number.isFinite)).toBe(true);
    mha.dispose();
  });
});
