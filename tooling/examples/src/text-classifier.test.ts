// The docs/nn.md example, run as a test: the model file is shown there verbatim, and trained here.
import '@attnkit/backends/gradients'; // training needs tfjs' gradient functions (as docs/nn.md says)
import { readFileSync } from 'node:fs';
import { losses, memory, oneHot, tensor2d, tidy, train, type Scalar } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { TextClassifier } from './text-classifier.js';

const EXAMPLE = new URL('./text-classifier.ts', import.meta.url);
const DOC = new URL('../../../docs/nn.md', import.meta.url);

/** Padded token sequences (ids 1..9, 0 = padding) and whether each contains token 7. */
function batch(step: number, size = 32, length = 8): { ids: number[][]; labels: number[] } {
  let state = (step * 2654435761 + 12345) >>> 0;
  const next = (n: number) => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 8) % n;
  const ids = Array.from({ length: size }, () => {
    const real = 3 + next(length - 2);
    return Array.from({ length }, (_, t) => (t < real ? 1 + next(9) : 0));
  });
  return { ids, labels: ids.map((row) => (row.includes(7) ? 1 : 0)) };
}

beforeAll(() => useBackend('cpu'));

/** Steps and the loss to reach: the full run on wasm (≈ 5 s); a shorter one on tfjs' pure-JS cpu backend (≈ 10× slower). */
const PLAN = { wasm: { steps: 150, below: 0.25 }, cpu: { steps: 40, below: 0.55 } } as const;

describe('docs/nn.md: a custom model from public exports', () => {
  it('is shown in docs/nn.md verbatim', () => {
    expect(readFileSync(DOC, 'utf8')).toContain(readFileSync(EXAMPLE, 'utf8').trim());
  });

  it('names its parameters by path (the keys of its state dict)', () => {
    const model = new TextClassifier({ vocabSize: 10, maxLength: 8, width: 16, numHeads: 2, numClasses: 2 });
    const names = model.namedParameters().map(([name]) => name);
    expect(names.slice(0, 3)).toEqual(['tokens.weight', 'positions.weight', 'encoder.layers.0.self_attn.in_proj_weight']);
    expect(names).toContain('encoder.layers.1.norm2.bias');
    expect(names.slice(-4)).toEqual(['encoder.norm.weight', 'encoder.norm.bias', 'head.weight', 'head.bias']);
    model.dispose();
  });

  it.each(['cpu', 'wasm'] as const)('trains on %s: the loss falls, no tensor grows, and the state dict restores it', async (backend) => {
    await useBackend(backend, backend === 'wasm' ? { numThreads: 1 } : {}); // one thread: a training loop on 2 threads stalls when CI runs another task beside it
    const model = new TextClassifier({ vocabSize: 10, maxLength: 8, width: 32, numHeads: 4, numClasses: 2, seed: 1 });
    model.train();
    const optimizer = train.adam(3e-3);
    const lossAt = (step: number) => {
      const { ids, labels } = batch(step);
      return tidy(() => losses.softmaxCrossEntropy(oneHot(labels, 2), model.forward(tensor2d(ids, undefined, 'int32'))) as Scalar);
    };
    const first = lossAt(0);
    const start = await first.data();
    first.dispose();
    const losses_: number[] = [];
    let tensorsAfterFirstStep = 0;
    for (let step = 1; step <= PLAN[backend].steps; step++) {
      const loss = optimizer.minimize(() => lossAt(step), true, model.trainableParameters())!;
      losses_.push((await loss.data())[0]!);
      loss.dispose();
      if (step === 1) tensorsAfterFirstStep = memory().numTensors; // the optimiser's slots exist from here on
    }
    expect(memory().numTensors).toBe(tensorsAfterFirstStep);
    const late = losses_.slice(-10).reduce((a, b) => a + b) / 10;
    expect(start[0]).toBeGreaterThan(0.5); // near chance (ln 2 ≈ 0.69) before training
    expect(late).toBeLessThan(PLAN[backend].below);

    model.eval();
    const restored = new TextClassifier({ vocabSize: 10, maxLength: 8, width: 32, numHeads: 4, numClasses: 2, seed: 99 });
    restored.loadStateDict(model.stateDict());
    const ids = tensor2d(batch(1000).ids, undefined, 'int32');
    const [a, b] = [model.forward(ids), restored.forward(ids)];
    expect(Array.from(await b.data())).toEqual(Array.from(await a.data()));
    [ids, a, b].forEach((t) => t.dispose());
    optimizer.dispose();
    model.dispose();
    restored.dispose();
  }, 120_000);
});
