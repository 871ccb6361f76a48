// Training needs tfjs' gradient functions; '@tensorflow/tfjs' registers them (tfjs-core alone does not).
import '@tensorflow/tfjs';
import { add, gather, losses, matMul, memory, oneHot, randomUniform, reshape, tensor2d, tidy, train, variable, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { paddingMask } from '@attnkit/masks';
import { MultiHeadAttention } from './multi-head-attention.js';

const [VOCAB, LENGTH, WIDTH, BATCH] = [8, 6, 32, 64];
const LOSS_TARGET = 0.05; // mean cross-entropy per token; chance level is ln(8) ≈ 2.08

/** A deterministic batch of random token sequences and their reversals. */
function batch(step: number): { tokens: number[][]; reversed: number[][] } {
  let state = (step * 2654435761) >>> 0;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 16) % VOCAB;
  const tokens = Array.from({ length: BATCH }, () => Array.from({ length: LENGTH }, next));
  return { tokens, reversed: tokens.map((row) => [...row].reverse()) };
}

describe.each(['cpu', 'wasm'] as const)('training a model built from attnkit blocks on %s', (backend) => {
  it(`learns to reverse sequences (loss < ${LOSS_TARGET}) with masks and dropout in the graph, leaking nothing per step`, async () => {
    await useBackend(backend);
    const embedding = variable(randomUniform([VOCAB, WIDTH], -0.1, 0.1, 'float32', 1));
    const positions = variable(randomUniform([LENGTH, WIDTH], -0.1, 0.1, 'float32', 2));
    const readout = variable(randomUniform([WIDTH, VOCAB], -0.1, 0.1, 'float32', 3));
    const mha = new MultiHeadAttention({ embedDim: WIDTH, numHeads: 4, dropout: 0.1, seed: 4 });
    const mask = paddingMask(Array.from({ length: BATCH }, () => LENGTH), LENGTH); // all valid: gradients flow through where/mul
    const optimizer = train.adam(0.01);
    const step = (i: number): number => {
      const { tokens, reversed } = batch(i);
      const loss = optimizer.minimize(() => {
        const x = add(gather(embedding, tensor2d(tokens, undefined, 'int32')), positions); // [B, T, E]
        const { output } = mha.forward(x, x, x, { attentionMask: mask, training: true, seed: i });
        const logits = reshape(matMul(reshape(output, [-1, WIDTH]), readout), [-1, VOCAB]); // [B·T, V]
        const labels = oneHot(reshape(tensor2d(reversed, undefined, 'int32'), [-1]), VOCAB);
        return losses.softmaxCrossEntropy(labels, logits) as Scalar;
      }, true, [embedding, positions, readout, ...mha.parameters()]) as Tensor;
      const value = loss.dataSync()[0] as number;
      loss.dispose();
      return value;
    };
    const curve: number[] = [step(0)];
    const afterFirstStep = memory().numTensors; // Adam's slot variables exist from here on
    for (let i = 1; i < 400 && (curve[curve.length - 1] as number) >= LOSS_TARGET; i++) curve.push(step(i));
    const final = curve[curve.length - 1] as number;
    console.log(`${backend}: loss ${curve[0]?.toFixed(3)} -> ${final.toFixed(4)} in ${curve.length} steps (every 25th: ${curve.filter((_, i) => i % 25 === 0).map((l) => l.toFixed(3)).join(' ')})`);
    expect(curve[0]).toBeGreaterThan(1.9); // starts at chance
    expect(final).toBeLessThan(LOSS_TARGET);
    expect(memory().numTensors).toBe(afterFirstStep);
    tidy(() => optimizer.dispose());
    [embedding, positions, readout, mask].forEach((t) => t.dispose());
    mha.dispose();
  }, 120_000);
});
