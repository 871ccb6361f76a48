import { engine } from '@tensorflow/tfjs-core';
import { loadCausalLM, type CausalLM, type FinishReason, type GenerationResult } from '@attnkit/models';
import { loadTokenizer, type Tokenizer } from '@attnkit/tokenizers';
import { readGenerationSettings, type GenerationSettings } from './read-generation-settings.js';

/** The causal LM the panel holds: what it was loaded from, on which backend, in how long. */
export interface LoadedCausalLM {
  readonly label: string;
  readonly url: string;
  readonly backend: string;
  readonly loadMs: number;
  readonly modelType: string;
}

/** One generation of the panel, as it goes: what the page exposes and the end-to-end test reads. */
export interface GenerationRun {
  readonly backend: string;
  readonly model: string;
  readonly settings: GenerationSettings;
  /** Tokens of the prompt (what the prefill reads). */
  readonly promptTokens: number;
  /** The new token ids so far. */
  readonly tokens: number[];
  /** The new text so far (valid UTF-8 pieces as `stream` yields them). */
  text: string;
  /** Prompt tokens per second of the prefill (the prompt's forward and the first token's choice). */
  prefillTokensPerSecond?: number;
  /** New tokens per second after the first (one cached forward each). */
  decodeTokensPerSecond?: number;
  running: boolean;
  /** Stop ended it. */
  aborted: boolean;
  /** Why it ended, when it was not stopped: `'eos'`, `'stop'` or `'length'`. */
  finishReason?: FinishReason;
}

/** The panel's elements. */
export interface GenerationPanelElements {
  readonly status: HTMLElement;
  readonly prompt: HTMLTextAreaElement;
  readonly maxNewTokens: HTMLInputElement;
  readonly temperature: HTMLInputElement;
  readonly seed: HTMLInputElement;
  readonly start: HTMLButtonElement;
  readonly stop: HTMLButtonElement;
  readonly output: HTMLElement;
  readonly speed: HTMLElement;
}

/**
 * The "Text generation" panel: `load` reads a causal language model folder (`loadCausalLM` of
 * `@attnkit/models`, its tokenizer with `loadTokenizer`) on the current backend; the model there stays
 * (and works) until the new one has loaded, then it is disposed. `generate` streams the prompt's
 * continuation into the output as tokens arrive (`model.stream` with `onToken`), greedy at
 * temperature 0, else sampled with the seed, showing prefill and decode tokens per second; `stop`
 * aborts it through an `AbortSignal` (no tensor is left behind). A model loaded on another backend
 * than the current one is loaded again first, so the weights live where the work runs. Bad input
 * throws before anything runs (a `PageInputError`); the model's own errors (a prompt and max new
 * tokens past its `max_position_embeddings`, a folder that is no causal LM) are thrown as they are.
 *
 * @example
 * const panel = generationPanel(elements);
 * await panel.load('/models/tiny-random-qwen3/', 'tiny-random-qwen3');
 * const run = await panel.generate((run) => (state.generation = run)); // run.tokens, run.text, run.decodeTokensPerSecond
 */
export function generationPanel(elements: GenerationPanelElements): {
  load: (url: string, label: string, options?: { readonly fetch?: typeof fetch }) => Promise<LoadedCausalLM>;
  generate: (onStart?: (run: GenerationRun) => void) => Promise<GenerationRun>;
  stop: () => void;
  loaded: () => LoadedCausalLM | undefined;
} {
  let held: { model: CausalLM; tokenizer: Tokenizer; info: LoadedCausalLM; fetch: typeof fetch | undefined } | undefined;
  let controller: AbortController | undefined;

  async function load(url: string, label: string, options: { readonly fetch?: typeof fetch } = {}): Promise<LoadedCausalLM> {
    const backend = engine().backendName;
    elements.status.textContent = `loading ${label} on ${backend}…`;
    const started = performance.now();
    const fetchOption = options.fetch === undefined ? {} : { fetch: options.fetch };
    const [loadedModel, loadedTokenizer] = await Promise.allSettled([loadCausalLM(url, fetchOption), loadTokenizer(url, fetchOption)]);
    if (loadedModel.status === 'rejected' || loadedTokenizer.status === 'rejected') {
      if (loadedModel.status === 'fulfilled') loadedModel.value.dispose(); // its tokenizer did not load: nothing of it is kept
      elements.status.textContent = held === undefined ? `${label} did not load.` : `${label} did not load; still using ${held.info.label}.`;
      throw loadedModel.status === 'rejected' ? loadedModel.reason : (loadedTokenizer as PromiseRejectedResult).reason;
    }
    const [model, tokenizer] = [loadedModel.value, loadedTokenizer.value];
    const info: LoadedCausalLM = { label, url, backend, loadMs: performance.now() - started, modelType: model.config.modelType };
    held?.model.dispose();
    held = { model, tokenizer, info, fetch: options.fetch };
    const { numHiddenLayers, hiddenSize, vocabSize, maxPositionEmbeddings } = model.config;
    elements.status.textContent = `${label}: ${model.config.modelType}, ${numHiddenLayers} layers, hidden ${hiddenSize}, vocabulary ${vocabSize}, at most ${maxPositionEmbeddings} positions — loaded on ${backend} in ${info.loadMs.toFixed(0)} ms`;
    return info;
  }

  async function generate(onStart?: (run: GenerationRun) => void): Promise<GenerationRun> {
    const settings = readGenerationSettings({ prompt: elements.prompt.value, maxNewTokens: elements.maxNewTokens.value, temperature: elements.temperature.value, seed: elements.seed.value });
    if (held === undefined) throw new Error('Load a model first.');
    const backend = engine().backendName;
    if (held.info.backend !== backend) await load(held.info.url, held.info.label, held.fetch === undefined ? {} : { fetch: held.fetch });
    const { model, tokenizer, info } = held;
    const promptTokens = tokenizer.encode([settings.prompt], { padding: false, truncation: false }).inputIds[0]!.length;
    const run: GenerationRun = { backend, model: info.label, settings, promptTokens, tokens: [], text: '', running: true, aborted: false };
    onStart?.(run);
    const generated = document.createTextNode('');
    elements.output.replaceChildren(Object.assign(document.createElement('span'), { className: 'prompt', textContent: settings.prompt }), generated);
    elements.speed.textContent = '';
    const sampling = settings.temperature === 0 ? { doSample: false } : { doSample: true, temperature: settings.temperature, seed: settings.seed };
    controller = new AbortController();
    const { signal } = controller;
    [elements.start.disabled, elements.stop.disabled] = [true, false];
    const started = performance.now();
    let first = 0;
    const onToken = ({ token }: { token: number }) => {
      const now = performance.now();
      run.tokens.push(token);
      if (run.tokens.length === 1) {
        first = now;
        run.prefillTokensPerSecond = promptTokens / ((now - started) / 1000);
      } else {
        run.decodeTokensPerSecond = (run.tokens.length - 1) / ((now - first) / 1000);
      }
      elements.speed.textContent = speedLine(run);
    };
    try {
      const pieces = model.stream(settings.prompt, { tokenizer, maxNewTokens: settings.maxNewTokens, ...sampling, onToken, signal });
      let next: IteratorResult<{ text: string }, GenerationResult>;
      while (!(next = await pieces.next()).done) {
        run.text += next.value.text;
        generated.appendData(next.value.text);
      }
      run.finishReason = next.value.finishReasons[0]!;
    } catch (error) {
      if (!signal.aborted) throw error;
      run.aborted = true;
    } finally {
      controller = undefined;
      [elements.start.disabled, elements.stop.disabled] = [false, true];
      run.running = false;
    }
    const ended = run.aborted ? `stopped after ${run.tokens.length} of ${settings.maxNewTokens} tokens` : `${run.tokens.length} tokens (${run.finishReason === 'eos' ? 'end of sequence' : run.finishReason === 'stop' ? 'stop string' : 'max new tokens'})`;
    elements.speed.textContent = `${ended} on ${backend}, ${settings.temperature === 0 ? 'greedy' : `sampled at temperature ${settings.temperature}, seed ${settings.seed}`} · ${speedLine(run)}`;
    return run;
  }

  return { load, generate, stop: () => controller?.abort(), loaded: () => held?.info };
}

/** Prefill and decode speeds of a run, as far as they are known. */
function speedLine(run: GenerationRun): string {
  const prefill = run.prefillTokensPerSecond === undefined ? '' : `prefill ${run.promptTokens} tokens at ${run.prefillTokensPerSecond.toFixed(0)} tokens/s`;
  const decode = run.decodeTokensPerSecond === undefined ? '' : ` · decode ${run.tokens.length - 1} tokens at ${run.decodeTokensPerSecond.toFixed(0)} tokens/s`;
  return prefill + decode;
}
