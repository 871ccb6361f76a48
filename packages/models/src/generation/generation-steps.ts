import type { Tensor } from '@tensorflow/tfjs-core';
import { callBackend } from '@attnkit/backends';
import { UseAfterDisposeError } from '@attnkit/errors';
import type { KvCache } from '@attnkit/attention';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import type { CausalLMInputs, CausalLMOutputs } from '../decoder/decoder-inputs.js';
import type { CreateCacheOptions } from '../decoder/decoder-model.js';
import { chooseToken } from './choose-token.js';
import type { GenerationConfig } from './generation-config.js';
import type { FinishReason, GeneratedText, GenerateInput, GenerateOptions, GenerationResult } from './generate-options.js';
import { promptBatch } from './prompt-batch.js';
import { resolveGeneration } from './resolve-generation.js';
import { seededRandom } from './seeded-random.js';
import { TextStream } from './text-stream.js';

/** What generation needs of a causal language model. */
export interface GenerationModel {
  readonly className: string;
  readonly isDisposed: boolean;
  readonly config: DecoderConfig;
  readonly generationConfig: GenerationConfig;
  forward(inputs: CausalLMInputs): CausalLMOutputs;
  createCache(options?: CreateCacheOptions): KvCache;
}

/** Lets other tasks run between two tokens (an abort, a dispose, a UI update): a macrotask, not a microtask. */
function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Generation, step by step: the settings resolved and checked and the prompts left-padded before
 * anything is allocated; then one forward pass over the KV cache per step (the whole prompt first,
 * one token per row after), the next token of each row chosen from the last position's logits
 * (`chooseToken`), `onToken` told, and the row's new text (valid UTF-8 only) yielded. A row stops at an
 * end-of-sequence id or a stop string; the loop at `maxNewTokens` or when every row stopped. Between
 * steps the event loop runs, so an abort (`signal`) or a `dispose()` of the model ends it with its
 * error; the cache is disposed however it ends, so no tensor outlives it. Returns the result.
 *
 * @example
 * for await (const piece of generationSteps(model, 'Once upon a time', { tokenizer })) process.stdout.write(piece.text);
 */
export async function* generationSteps(model: GenerationModel, input: GenerateInput, options: GenerateOptions, caller: string): AsyncGenerator<GeneratedText, GenerationResult> {
  if (model.isDisposed) throw new UseAfterDisposeError(caller);
  const settings = resolveGeneration(options, model.generationConfig, model.config, caller);
  const { tokenizer, signal, eos, stop } = settings;
  const batch = promptBatch(input, tokenizer, settings.padTokenId, model.config.vocabSize, caller);
  const width = batch.inputIds[0]!.length;
  const newTokens = settings.newTokens(width);
  signal?.throwIfAborted();
  const backend = callBackend(caller);
  const rows = batch.prompts.length;
  const vocabSize = model.config.vocabSize;
  const tokens = batch.prompts.map((): number[] => []);
  const texts = batch.prompts.map(() => '');
  const finished: (FinishReason | undefined)[] = batch.prompts.map(() => undefined);
  const streams = tokenizer === undefined ? undefined : batch.prompts.map((prompt) => new TextStream(tokenizer, prompt));
  const seen = settings.repetitionPenalty === 1 ? undefined : batch.prompts.map((prompt) => new Set(prompt));
  const random = settings.doSample ? seededRandom(settings.seed ?? Math.floor(Math.random() * 2 ** 32)) : undefined;
  const longestStop = stop.reduce((n, s) => Math.max(n, s.length), 0);
  const cache = model.createCache({ maxLength: width + newTokens }); // exactly what this call needs
  try {
    let inputIds = batch.inputIds;
    let attentionMask = batch.attentionMask;
    for (let step = 0; step < newTokens; step++) {
      await backend.settled();
      signal?.throwIfAborted();
      if (model.isDisposed) throw new UseAfterDisposeError(caller);
      const logits: Tensor = backend.run(() => model.forward({ inputIds, attentionMask, pastKeyValues: cache, logitsToKeep: 1 }).logits); // [B, 1, V]
      let values: Float32Array;
      try {
        values = (await logits.data()) as Float32Array;
      } finally {
        logits.dispose();
      }
      const next = finished.map((done, b) => (done !== undefined ? settings.padTokenId : chooseToken(values.subarray(b * vocabSize, (b + 1) * vocabSize), settings, seen?.[b], random)));
      const pieces: GeneratedText[] = [];
      for (let b = 0; b < rows; b++) {
        if (finished[b] !== undefined) continue;
        const token = next[b]!;
        tokens[b]!.push(token);
        seen?.[b]!.add(token);
        const text = streams?.[b]!.push(token) ?? '';
        texts[b] += text;
        if (eos.has(token)) finished[b] = 'eos';
        else if (longestStop > 0 && stop.some((s) => texts[b]!.includes(s, Math.max(0, texts[b]!.length - text.length - s.length + 1)))) finished[b] = 'stop';
        settings.onToken?.({ row: b, token, index: step, text });
        if (text !== '') pieces.push({ row: b, text });
      }
      yield* pieces;
      if (finished.every((done) => done !== undefined)) break;
      inputIds = next.map((token) => [token]);
      attentionMask = next.map(() => [1]);
      await yieldToEventLoop();
    }
    for (let b = 0; b < rows; b++) {
      finished[b] ??= 'length';
      const rest = streams?.[b]!.flush() ?? '';
      texts[b] += rest;
      if (rest !== '') yield { row: b, text: rest };
    }
    return { tokens, texts: tokenizer === undefined ? undefined : texts, finishReasons: finished as FinishReason[] };
  } finally {
    cache.dispose();
  }
}
