import { engine } from '@tensorflow/tfjs-core';
import type { SentenceEncoder } from '@attnkit/sentence';
import { trainSentenceEncoder } from '@attnkit/train';
import { describeSimilarity } from './describe-similarity.js';
import { drawHeatmap } from './heatmap.js';
import type { HeatmapValues } from './heatmap-tooltip.js';
import { drawLossCurve } from './loss-curve.js';
import { readFineTuneSettings } from './read-fine-tune-settings.js';

/** Pairs a step trains on (all of them for a dozen pairs). */
export const FINE_TUNE_BATCH_SIZE = 16;

/** One fine-tuning run of the panel, as it goes: what the page exposes and the end-to-end test reads. */
export interface FineTuneRun {
  readonly backend: string;
  /** The page's sentences the similarity matrices are of. */
  readonly sentences: string[];
  readonly pairs: number;
  readonly learningRate: number;
  readonly totalSteps: number;
  /** The loss of every step so far (index `i`: step `i + 1`). */
  readonly losses: number[];
  /** Cosine similarity of `sentences` `[N, N]` before the first step, and after the last. */
  readonly before: number[][];
  after?: number[][];
  /** Steps per second after the first (which compiles WebGL shaders). */
  stepsPerSecond?: number;
  /** Animation frames the page drew while training (one or more a step: it stayed responsive). */
  frames: number;
  running: boolean;
  /** Stop ended it before `totalSteps`. */
  aborted: boolean;
}

/** The panel's elements. */
export interface FineTunePanelElements {
  readonly pairs: HTMLTextAreaElement;
  readonly steps: HTMLInputElement;
  readonly learningRate: HTMLInputElement;
  readonly start: HTMLButtonElement;
  readonly stop: HTMLButtonElement;
  readonly status: HTMLElement;
  readonly lossCurve: HTMLCanvasElement;
  readonly before: HTMLCanvasElement;
  readonly after: HTMLCanvasElement;
}

/** What the panel needs from the page: the similarity matrix of sentences with the current model, and heatmap tooltips. */
export interface FineTunePanelPage {
  readonly similarity: (texts: string[]) => number[][];
  readonly showValues: (canvas: HTMLCanvasElement, values: HeatmapValues) => void;
}

/**
 * The "Fine-tune on these pairs" panel: `fineTune` trains `model` in place on the typed pairs with
 * the ranking loss, on the page's current backend, drawing the loss curve as steps arrive and the
 * similarity of the page's sentences before and after; `stop` ends a run after its current step.
 * Bad input throws before anything is trained (a `PageInputError` naming the box or line).
 *
 * The trainer yields to the event loop after every step, so the page paints the curve and handles
 * Stop between steps on every backend.
 *
 * @example
 * const panel = fineTunePanel(elements, { similarity: (texts) => encode(texts).similarity, showValues });
 * stopButton.onclick = panel.stop;
 * const run = await panel.fineTune(model, sentences, (run) => (state.fineTune = run));
 */
export function fineTunePanel(elements: FineTunePanelElements, page: FineTunePanelPage): {
  fineTune: (model: SentenceEncoder, sentences: string[], onStart?: (run: FineTuneRun) => void) => Promise<FineTuneRun>;
  stop: () => void;
} {
  let controller: AbortController | undefined;
  const drawSimilarity = (canvas: HTMLCanvasElement, matrix: number[][], range: { min: number; max: number }, texts: string[], when: string) => {
    const names = texts.map((_, i) => `${i + 1}`);
    const layout = drawHeatmap(canvas, matrix, names, names, range);
    page.showValues(canvas, { matrix, layout, describe: describeSimilarity(texts, `${when}: `) });
  };

  async function fineTune(model: SentenceEncoder, sentences: string[], onStart?: (run: FineTuneRun) => void): Promise<FineTuneRun> {
    const { pairs, steps, learningRate } = readFineTuneSettings({ pairs: elements.pairs.value, steps: elements.steps.value, learningRate: elements.learningRate.value });
    if (sentences.length === 0) throw new Error('Type at least one sentence: the panel shows their similarity before and after fine-tuning.');
    const before = page.similarity(sentences);
    const run: FineTuneRun = { backend: engine().backendName, sentences, pairs: pairs.length, learningRate, totalSteps: steps, losses: [], before, frames: 0, running: true, aborted: false };
    onStart?.(run);
    drawSimilarity(elements.before, before, { min: Math.min(0, ...before.flat()), max: 1 }, sentences, 'before fine-tuning');
    elements.after.getContext('2d')?.clearRect(0, 0, elements.after.width, elements.after.height);
    drawLossCurve(elements.lossCurve, run.losses, steps);
    elements.status.textContent = `fine-tuning on ${run.backend}: ${pairs.length} pairs, ${steps} steps…`;
    controller = new AbortController();
    [elements.start.disabled, elements.stop.disabled] = [true, false];
    let counting = requestAnimationFrame(function count() {
      run.frames += 1;
      counting = requestAnimationFrame(count);
    });
    const stepTimes: number[] = [];
    try {
      const history = await trainSentenceEncoder(model, pairs, {
        loss: 'multiple-negatives-ranking', batchSize: FINE_TUNE_BATCH_SIZE, maxSteps: steps, learningRate, signal: controller.signal,
        onProgress: ({ step, totalSteps, loss }) => {
          run.losses.push(loss);
          stepTimes.push(performance.now());
          if (stepTimes.length > 1) run.stepsPerSecond = (stepTimes.length - 1) / ((stepTimes.at(-1)! - stepTimes[0]!) / 1000);
          drawLossCurve(elements.lossCurve, run.losses, totalSteps);
          elements.status.textContent = `step ${step} of ${totalSteps} · loss ${loss.toFixed(3)}${run.stepsPerSecond === undefined ? '' : ` · ${run.stepsPerSecond.toFixed(2)} steps/s`}`;
        },
      });
      run.aborted = history.aborted;
    } finally {
      cancelAnimationFrame(counting);
      controller = undefined;
      [elements.start.disabled, elements.stop.disabled] = [false, true];
      run.running = false;
    }
    const after = page.similarity(sentences);
    run.after = after;
    const range = { min: Math.min(0, ...before.flat(), ...after.flat()), max: 1 }; // one colour scale for both
    drawSimilarity(elements.before, before, range, sentences, 'before fine-tuning');
    drawSimilarity(elements.after, after, range, sentences, 'after fine-tuning');
    const done = run.losses.length;
    const losses = done === 0 ? '' : ` · loss ${run.losses[0]!.toFixed(3)} → ${run.losses.at(-1)!.toFixed(3)}`;
    const speed = run.stepsPerSecond === undefined ? '' : ` · ${run.stepsPerSecond.toFixed(2)} steps/s`;
    elements.status.textContent = `${run.aborted ? `stopped after ${done} of ${steps} steps` : `fine-tuned ${done} steps`} on ${run.backend}${losses}${speed}. The model keeps these weights; load it again to start over.`;
    return run;
  }

  return { fineTune, stop: () => controller?.abort() };
}
