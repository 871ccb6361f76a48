import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { loadBert } from '@attnkit/models';

const PASSES = 200;
const path = new URL('../../../reference/fixtures/bert-b/', import.meta.url).pathname;
const folder = new URL(path.startsWith('/@fs/') ? path : `/@fs${path}`, location.origin).href; // Vite serves files outside the root under /@fs/

describe('soak on webgl (Chromium)', () => {
  it(`${PASSES} forward passes keep tensors and bytes flat`, async () => {
    await useBackend('webgl');
    const model = await loadBert(folder);
    const batch = { inputIds: [[2, 5, 7, 9, 11], [3, 4, 6, 0, 0]], attentionMask: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]] };
    const once = async () => {
      const out = model.forward(batch);
      await out.lastHiddenState.data();
      out.lastHiddenState.dispose();
      out.poolerOutput.dispose();
    };
    await once();
    const before = memory();
    for (let i = 0; i < PASSES; i++) await once();
    const after = memory();
    console.log(`webgl: ${PASSES} passes, tensors ${before.numTensors} -> ${after.numTensors}, bytes ${before.numBytes} -> ${after.numBytes}`);
    expect([after.numTensors - before.numTensors, after.numBytes - before.numBytes]).toEqual([0, 0]);
    model.dispose();
  }, 300_000);
});
