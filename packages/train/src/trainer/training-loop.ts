import '@attnkit/backends/gradients'; // training needs tfjs' gradient functions, which tfjs-core alone does not register (this works in Node and bundlers)
import { dispose, variableGrads, type Scalar, type Variable } from '@tensorflow/tfjs-core';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import type { Evaluation, TrainerState } from '../checkpoint/trainer-state.js';
import { AdamW, type AdamWState } from '../optim/adamw.js';
import { clipGradNorm } from '../optim/clip-grad-norm.js';
import { linearScheduleWithWarmup } from '../optim/linear-schedule-with-warmup.js';
import type { TrainingProgress } from './training-options.js';
import { withSeededDropout } from './with-seeded-dropout.js';
import { checkTrainingRun } from './check-training-run.js';
import { yieldToEventLoop } from './yield-to-event-loop.js';

/** What a training function resolves with. */
export interface TrainingHistory {
  /** Steps done, counting those before a resume. */
  readonly steps: number;
  readonly totalSteps: number;
  /** The loss of every step (index `i`: step `i + 1`), including those before a resume. */
  readonly losses: readonly number[];
  /** The learning rate each step used. */
  readonly learningRates: readonly number[];
  readonly evaluations: readonly Evaluation[];
  /** Checkpoint folders written by this call. */
  readonly checkpoints: readonly string[];
  /** True when `signal` stopped the run before `totalSteps`. */
  readonly aborted: boolean;
}

/** A checkpoint read back: where the run was, the optimiser's state, and how to put its weights into the model (called once the checkpoint is known to fit the run). */
export interface RestoredRun {
  readonly folder: string;
  readonly state: TrainerState;
  readonly optimizer: AdamWState;
  readonly loadWeights: () => void;
}

/**
 * One training run as {@link runTrainingLoop} drives it: the data order, the loss of a batch, and
 * how the model is put in train or eval mode, saved, restored and evaluated. The trainers
 * (`trainSentenceEncoder`, `trainMaskedLanguageModel`) describe their model and data this way.
 */
export interface TrainingRun {
  readonly caller: string;
  /** The trainable parameters under their checkpoint keys (the optimiser's state is keyed by them). */
  readonly parameters: ReadonlyArray<readonly [string, Variable]>;
  /** Parameters without weight decay (biases, LayerNorms). */
  readonly noDecay: (name: string) => boolean;
  /** Epoch `epoch`'s batches as example indices (deterministic: a resumed run finds its place). */
  readonly plan: (epoch: number) => readonly (readonly number[])[];
  readonly totalSteps: number;
  readonly learningRate: number;
  readonly warmupSteps: number;
  readonly weightDecay: number;
  readonly maxGradNorm: number;
  readonly seed: number;
  /** Train with dropout (seeded by `seed` and the step). */
  readonly dropout: boolean;
  /** The loss of batch `indices` at step `step` (0-based), built inside `variableGrads`. */
  readonly batchLoss: (indices: readonly number[], step: number) => Scalar;
  readonly setMode: (training: boolean) => void;
  /** What the trainer state records to refuse resuming with other data: the loss's name, the number of examples and a fingerprint of them. */
  readonly identity: { readonly loss: string; readonly examples: number; readonly dataFingerprint: string; readonly batchSize: number };
  /** Writes a checkpoint, returning its folder. */
  readonly save?: (state: TrainerState, optimizer: AdamW) => Promise<string>;
  /** Steps between checkpoints (besides the end and an abort). */
  readonly saveEvery?: number;
  /** Reads the checkpoint to resume from (it may refuse one that does not fit the model, with a `CheckpointError`). */
  readonly restore?: () => Promise<RestoredRun>;
  readonly evaluation?: { readonly every: number; readonly evaluate: () => Promise<Record<string, number>> | Record<string, number> };
  readonly onProgress?: (progress: TrainingProgress) => void;
  readonly signal?: AbortSignal;
}

/**
 * The training loop the trainers share: AdamW with a linear warm-up and decay, gradients clipped to
 * a global norm, seeded dropout, progress after each step, evaluations and checkpoints on their
 * schedules, a checkpoint when stopped, `resume` that takes exactly the steps an uninterrupted run
 * would (the checkpoint's seed, batch size, loss and data must match), and a turn of the event loop
 * between steps. No tensor is left behind; the optimiser is disposed at the end.
 *
 * @example
 * const history = await runTrainingLoop({ caller: 'myTrainer', parameters, plan, batchLoss, ... });
 */
export async function runTrainingLoop(run: TrainingRun): Promise<TrainingHistory> {
  checkTrainingRun(run);
  const { caller, totalSteps } = run;
  const schedule = linearScheduleWithWarmup({ warmupSteps: Math.min(run.warmupSteps, totalSteps), totalSteps });
  const optimizer = new AdamW(run.parameters.map(([name, p]) => [name, p] as [string, Variable]), { learningRate: run.learningRate, weightDecay: run.weightDecay, noDecay: run.noDecay });
  const variables = run.parameters.map(([, p]) => p);
  const batches = (epoch: number): number => run.plan(epoch).length;

  let step = 0;
  let epoch = 0;
  let batchInEpoch = 0;
  const losses: number[] = [];
  const learningRates: number[] = [];
  const evaluations: Evaluation[] = [];
  const checkpoints: string[] = [];
  let aborted = false;
  let savedAt = -1;
  const state = (): TrainerState => ({ format: 'attnkit-trainer-state', version: 1, step, totalSteps, epoch, batchInEpoch, seed: run.seed, batchSize: run.identity.batchSize, loss: run.identity.loss, examples: run.identity.examples, dataFingerprint: run.identity.dataFingerprint, losses, learningRates, evaluations });
  const save = async (): Promise<void> => {
    if (run.save === undefined || savedAt === step) return;
    run.setMode(false);
    checkpoints.push(await run.save(state(), optimizer));
    savedAt = step;
  };
  const evaluate = async (): Promise<void> => {
    if (run.evaluation === undefined) return;
    run.setMode(false);
    const metrics = await run.evaluation.evaluate();
    evaluations.push({ step, epoch: epoch + batchInEpoch / batches(epoch), metrics: { ...metrics } });
  };

  try {
    if (run.restore !== undefined) {
      const resumed = await run.restore();
      const s = resumed.state;
      const { identity } = run;
      const mismatch = ([['seed', s.seed, run.seed], ['batchSize', s.batchSize, identity.batchSize], ['loss', s.loss, identity.loss], ['the number of examples', s.examples, identity.examples], ['the data (fingerprint)', s.dataFingerprint, identity.dataFingerprint]] as const).find(([, saved, given]) => saved !== given);
      if (mismatch !== undefined) throw new CheckpointError(caller, resumed.folder, `${resumed.folder} was written with ${mismatch[0]} = ${JSON.stringify(mismatch[1])}, this run has ${JSON.stringify(mismatch[2])}; resume with the same data, loss, seed and batchSize (they fix the data order).`);
      if (s.step > totalSteps) throw new CheckpointError(caller, resumed.folder, `${resumed.folder} is at step ${s.step}, past this run's ${totalSteps} steps.`);
      resumed.loadWeights();
      optimizer.importState(resumed.optimizer);
      ({ step, epoch, batchInEpoch } = s);
      losses.push(...s.losses);
      learningRates.push(...s.learningRates);
      evaluations.push(...s.evaluations);
      savedAt = step;
    }
    const started = performance.now();
    const startStep = step;
    while (step < totalSteps) {
      if (run.signal?.aborted === true) {
        aborted = true;
        break;
      }
      const indices = run.plan(epoch)[batchInEpoch]!;
      const learningRate = run.learningRate * schedule(step);
      optimizer.learningRate = learningRate;
      run.setMode(run.dropout);
      const stepNumber = step;
      const { value, grads } = withSeededDropout(run.seed, stepNumber, () => variableGrads(() => run.batchLoss(indices, stepNumber), variables));
      let loss: number;
      try {
        if (run.maxGradNorm > 0) {
          const { gradients, totalNorm } = clipGradNorm(grads, run.maxGradNorm);
          optimizer.applyGradients(gradients);
          dispose([totalNorm, ...Object.values(gradients)]);
        } else {
          optimizer.applyGradients(grads);
        }
        loss = (await value.data())[0] as number;
      } finally {
        dispose([value, ...Object.values(grads)]);
      }
      step += 1;
      batchInEpoch += 1;
      if (batchInEpoch >= batches(epoch)) [epoch, batchInEpoch] = [epoch + 1, 0];
      losses.push(loss);
      learningRates.push(learningRate);
      const seconds = (performance.now() - started) / 1000;
      const stepsPerSecond = (step - startStep) / Math.max(seconds, 1e-9);
      run.onProgress?.({ step, totalSteps, epoch: epoch + batchInEpoch / batches(epoch), loss, learningRate, stepsPerSecond, etaSeconds: (totalSteps - step) / stepsPerSecond });
      if (run.evaluation !== undefined && (step % run.evaluation.every === 0 || step === totalSteps)) await evaluate();
      if (run.saveEvery !== undefined && step % run.saveEvery === 0) await save();
      await yieldToEventLoop(); // a Ctrl-C handler's abort, a repaint, a progress bar get their turn between steps
    }
    if (aborted || step === totalSteps) await save();
  } finally {
    optimizer.dispose();
    run.setMode(false);
  }
  return { steps: step, totalSteps, losses, learningRates, evaluations, checkpoints, aborted };
}
