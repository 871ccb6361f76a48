import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { dispose, memory, randomNormal, matMul, variableGrads, type Tensor2D } from '@tensorflow/tfjs-core';
import { Linear } from '@attnkit/nn';
import { withBackend } from '@attnkit/backends';
import { describe, expect, it } from 'vitest';
import { AdamW, clipGradNorm, linearScheduleWithWarmup, multipleNegativesRankingLoss } from './index.js';

describe('a training loop: Linear + MNRL + AdamW + warm-up schedule + clipping', () => {
  it.each(['cpu', 'wasm'])('lowers the loss and keeps the tensor count flat from step to step (%s)', async (backend) => {
    await withBackend(backend, async () => {
      const steps = 40;
      const model = new Linear(16, 8, { seed: 7 });
      const inputs = randomNormal([12, 16], 0, 1, 'float32', 1) as Tensor2D; // [B, in]
      const mixing = randomNormal([16, 16], 0, 1, 'float32', 2); // positives are a fixed transform of the anchors' inputs
      const paired = matMul(inputs, mixing) as Tensor2D; // [B, in]
      const optimizer = new AdamW(model, { learningRate: 5e-2 });
      const schedule = linearScheduleWithWarmup({ warmupSteps: 4, totalSteps: steps });
      const losses: number[] = [];
      const counts: number[] = [];
      for (let step = 0; step < steps; step++) {
        optimizer.learningRate = 5e-2 * schedule(optimizer.iterations);
        const { value, grads } = variableGrads(() => multipleNegativesRankingLoss(model.forward(inputs) as Tensor2D, model.forward(paired) as Tensor2D), model.trainableParameters());
        const { gradients, totalNorm } = clipGradNorm(grads, 1);
        optimizer.applyGradients(gradients);
        losses.push((await value.data())[0]!);
        dispose([value, totalNorm, ...Object.values(grads), ...Object.values(gradients)]);
        counts.push(memory().numTensors);
      }
      console.log(`${backend}: MNRL ${losses[0]!.toFixed(3)} -> ${losses[steps - 1]!.toFixed(3)} in ${steps} steps, ${counts[1]} tensors after every step`);
      expect(new Set(counts.slice(1)).size).toBe(1); // after the first step made the moments, nothing grows
      expect(losses[steps - 1]!).toBeLessThan(0.5 * losses[0]!);
      optimizer.dispose();
      model.dispose();
      dispose([inputs, mixing, paired]);
    });
  });
});
