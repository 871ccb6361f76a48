import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { loadBert, type BertModel } from '@attnkit/models';

const PASSES = Number(process.env['ATTNKIT_SOAK_PASSES'] ?? 1000);
const folder = (name: string) => decodeURIComponent(new URL(`../../../reference/fixtures/${name}/`, import.meta.url).pathname);
const batch = { inputIds: [[2, 5, 7, 9, 11], [3, 4, 6, 0, 0]], attentionMask: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], tokenTypeIds: [[0, 0, 1, 1, 1], [0, 0, 0, 0, 0]] };

function run(model: BertModel, outputAttentions = false): Float32Array {
  const out = model.forward({ ...batch, outputAttentions, outputHiddenStates: outputAttentions });
  const values = out.lastHiddenState.dataSync() as Float32Array;
  [out.lastHiddenState, out.poolerOutput, ...(out.hiddenStates ?? []), ...(out.attentions ?? [])].forEach((t) => t.dispose());
  return values;
}

describe.each(['cpu', 'wasm'] as const)('soaks on %s', (backend) => {
  it(`${PASSES} forward passes keep tensors and bytes flat`, async () => {
    await useBackend(backend);
    const model = await loadBert(folder('bert-b'));
    run(model, true); // warm-up
    const before = memory();
    for (let i = 0; i < PASSES; i++) run(model, i % 10 === 0);
    const after = memory();
    console.log(`${backend}: ${PASSES} passes, tensors ${before.numTensors} -> ${after.numTensors}, bytes ${before.numBytes} -> ${after.numBytes}`);
    expect([after.numTensors - before.numTensors, after.numBytes - before.numBytes]).toEqual([0, 0]);
    model.dispose();
  }, 300_000);

  it('50 load + dispose cycles return memory to the baseline', async () => {
    await useBackend(backend);
    const baseline = memory();
    for (let i = 0; i < 50; i++) (await loadBert(folder('bert-a'))).dispose();
    expect([memory().numTensors - baseline.numTensors, memory().numBytes - baseline.numBytes]).toEqual([0, 0]);
  }, 120_000);

  it('two models called interleaved give exactly what each gives alone', async () => {
    await useBackend(backend);
    const [a, b] = [await loadBert(folder('bert-a')), await loadBert(folder('bert-b'))];
    const aInputs = { inputIds: [[4, 8, 15, 16, 23, 42]] };
    const alone = { a: a.forward(aInputs), b: b.forward(batch) };
    const [aloneA, aloneB] = [alone.a.lastHiddenState.dataSync().slice(), alone.b.lastHiddenState.dataSync().slice()];
    [alone.a, alone.b].forEach((o) => [o.lastHiddenState, o.poolerOutput].forEach((t) => t.dispose()));
    for (let i = 0; i < 5; i++) {
      const [x, y] = [a.forward(aInputs), b.forward(batch)];
      expect(Array.from(x.lastHiddenState.dataSync())).toEqual(Array.from(aloneA));
      expect(Array.from(y.lastHiddenState.dataSync())).toEqual(Array.from(aloneB));
      [x, y].forEach((o) => [o.lastHiddenState, o.poolerOutput].forEach((t) => t.dispose()));
    }
    a.dispose();
    b.dispose();
  }, 60_000);
});
