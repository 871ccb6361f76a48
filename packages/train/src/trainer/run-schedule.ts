import { LayerNorm, type Module } from '@attnkit/nn';
import { isNoDecayParameter } from '../optim/no-decay.js';
import { lengthBucketedBatches } from './length-bucketed-batches.js';
import type { TrainingRun } from './training-loop.js';
import type { ResolvedTrainingOptions } from './training-options.js';

/** What {@link runSchedule} gives a trainer to hand to `runTrainingLoop`. */
export type RunSchedule = Pick<TrainingRun, 'plan' | 'totalSteps' | 'learningRate' | 'warmupSteps' | 'weightDecay' | 'maxGradNorm' | 'seed' | 'dropout' | 'saveEvery' | 'onProgress' | 'signal'>;

/**
 * The parts of a training run that follow from the resolved options and the examples' token
 * lengths alone, the same for every trainer: each epoch's length-bucketed batches (made once, on
 * first use), the number of steps, the warm-up in steps, and the optimiser, dropout, checkpoint and
 * progress settings. `texts`: each example's texts, so no text appears twice in a batch.
 *
 * @example
 * runTrainingLoop({ caller, parameters, batchLoss, ...runSchedule(o, lengths), ... });
 */
export function runSchedule(o: ResolvedTrainingOptions, lengths: readonly number[], texts?: ReadonlyArray<readonly string[]>): RunSchedule {
  const plans = new Map<number, number[][]>();
  const plan = (epoch: number): number[][] => {
    let batches = plans.get(epoch);
    if (batches === undefined) plans.set(epoch, (batches = lengthBucketedBatches(lengths.length, { batchSize: o.batchSize, seed: o.seed, epoch, lengths, ...(texts === undefined ? {} : { texts }) })));
    return batches;
  };
  const totalSteps = o.maxSteps ?? Array.from({ length: o.epochs ?? 1 }, (_, epoch) => plan(epoch).length).reduce((a, b) => a + b, 0);
  return {
    plan,
    totalSteps,
    learningRate: o.learningRate,
    warmupSteps: 'steps' in o.warmup ? o.warmup.steps : Math.ceil(o.warmup.ratio * totalSteps),
    weightDecay: o.weightDecay,
    maxGradNorm: o.maxGradNorm,
    seed: o.seed,
    dropout: o.dropout,
    ...(o.checkpoint?.every === undefined ? {} : { saveEvery: o.checkpoint.every }),
    ...(o.onProgress === undefined ? {} : { onProgress: o.onProgress }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  };
}

/**
 * The Hugging Face Trainer's no-decay rule for parameters named `prefix + key` of the given modules:
 * biases and norms by name, and every parameter of a `LayerNorm` whatever its name.
 *
 * @example
 * noDecayOf([['', model.encoder], ['dense.0.', model.dense[0]]])('encoder.layer.0.output.LayerNorm.weight'); // true
 */
export function noDecayOf(modules: ReadonlyArray<readonly [string, Module]>): (name: string) => boolean {
  const norms = new Set(modules.flatMap(([prefix, module]) => module.namedModules().filter(([, m]) => m instanceof LayerNorm).flatMap(([path, m]) => m.namedParameters().map(([name]) => `${prefix}${path === '' ? '' : `${path}.`}${name}`))));
  return (name) => isNoDecayParameter(name) || norms.has(name);
}
