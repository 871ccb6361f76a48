import type { Tensor } from '@tensorflow/tfjs-core';
import { KvCache, positionIdsFromMask } from '@attnkit/attention';
import { InvalidArgumentError, checkBoolean, checkObject, checkOptionKeys, describeValue, formatShape } from '@attnkit/errors';
import { decoderMask, paddingMaskFromIds, readMaskIds } from '@attnkit/masks';
import { checkIds } from '../encoder/check-encoder-inputs.js';
import type { DecoderConfig, DecoderLayerType } from './decoder-config.js';
import type { DecoderInputs } from './decoder-inputs.js';

/** What one forward pass of a decoder runs on: the checked ids, their positions, the masks per layer type and the cache. */
export interface DecoderStep {
  /** Int32 `[B, T]`. */
  readonly inputIds: Tensor;
  /** Int32 `[B, T]`. */
  readonly positionIds: Tensor;
  /** Bool `[B|1, 1, T, S]` by layer type (true = may attend): causal, or the sliding window, AND the padding of every key. */
  readonly masks: ReadonlyMap<DecoderLayerType, Tensor>;
  /** The cache this step was registered in (given, or started by `useCache`). */
  readonly cache: KvCache | undefined;
  /** Frees the step's tensors; with `failed`, also a cache the step started. */
  dispose(failed?: boolean): void;
}

const INPUT_KEYS = ['inputIds', 'attentionMask', 'positionIds', 'pastKeyValues', 'useCache'];

/**
 * Checks a decoder's inputs and prepares one forward pass, the one place positions and masks are
 * made: without a cache, positions count each row's tokens (`positionIdsFromMask`) and the mask is
 * `decoderMask(T, T, { padding, slidingWindow })`; with one, `KvCache.step` continues each row's count
 * and masks every earlier position (the sliding layers' mask from its padding record), so a step over
 * the cache sees what the whole sequence at once would. Refused as typed errors, before the cache
 * changes: ids outside the vocabulary, masks or positions of another shape, a cache of another model,
 * positions past a learned position table (GPT-2).
 *
 * @example
 * const step = decoderStep('LlamaModel.forward', config, { inputIds, attentionMask, pastKeyValues: cache });
 * try { ... layer.forward(hidden, { attentionMask: step.masks.get(type), cache: step.cache }) ... } finally { step.dispose(); }
 */
export function decoderStep(caller: string, config: DecoderConfig, inputs: DecoderInputs): DecoderStep {
  checkObject(inputs, { caller, argument: 'inputs', expected: 'an object { inputIds, attentionMask?, positionIds?, pastKeyValues?, useCache? }' });
  checkOptionKeys(inputs, INPUT_KEYS, caller, 'inputs');
  const given = inputs.pastKeyValues;
  if (given !== undefined) {
    if (!(given instanceof KvCache)) throw new InvalidArgumentError({ caller, argument: 'pastKeyValues', expected: 'a KvCache (model.createCache())', received: describeValue(given) });
    if (!given.isDisposed && given.numLayers !== config.numHiddenLayers) throw new InvalidArgumentError({ caller, argument: 'pastKeyValues', expected: `a KvCache of num_hidden_layers = ${config.numHiddenLayers} layers (model.createCache())`, received: `a KvCache of ${given.numLayers} layers` });
  }
  const useCache = checkBoolean(inputs.useCache, { caller, argument: 'useCache', fallback: false });
  const { ids, created } = checkIds(caller, 'inputIds', inputs.inputIds, config.vocabSize);
  const owned: Tensor[] = created ? [ids] : [];
  const masks = new Map<DecoderLayerType, Tensor>();
  let cache: KvCache | undefined;
  const dispose = (failed = false) => {
    owned.forEach((t) => t.dispose());
    masks.forEach((t) => t.dispose());
    if (failed && given === undefined) cache?.dispose();
  };
  try {
    const [batch, length] = ids.shape as [number, number];
    const past = given === undefined || given.isDisposed ? 0 : given.length;
    const tokenMask = tokenMaskOf(caller, inputs.attentionMask, batch, length, past);
    const types = new Set(config.layerTypes);
    const window = config.slidingWindow;
    let positionIds: Tensor;
    if (given !== undefined || useCache) {
      cache = given ?? new KvCache({ numLayers: config.numHiddenLayers, maxLength: config.maxPositionEmbeddings });
      const allSliding = !types.has('full_attention');
      const step = cache.step(tokenMask, allSliding ? { slidingWindow: window } : {});
      positionIds = step.positionIds;
      masks.set(allSliding ? 'sliding_attention' : 'full_attention', step.attentionMask);
      if (types.has('sliding_attention') && !allSliding) {
        const padding = cache.paddingMask();
        try {
          masks.set('sliding_attention', decoderMask(length, cache.length, { padding, slidingWindow: window }));
        } finally {
          padding.dispose();
        }
      }
    } else {
      positionIds = positionIdsFromMask(tokenMask);
      const padding = tokenMask.some((row) => row.includes(0)) ? paddingMaskFromIds(tokenMask) : undefined;
      try {
        for (const type of types) masks.set(type, decoderMask(length, length, { padding, slidingWindow: type === 'sliding_attention' ? window : undefined }));
      } finally {
        padding?.dispose();
      }
    }
    owned.push(positionIds);
    if (inputs.positionIds !== undefined) {
      const explicit = checkIds(caller, 'positionIds', inputs.positionIds, 2 ** 24, [batch, length]);
      if (explicit.created) owned.push(explicit.ids);
      positionIds = explicit.ids;
    }
    if (config.rotary === undefined) checkLearnedPositions(caller, positionIds, config.maxPositionEmbeddings);
    return { inputIds: ids, positionIds, masks, cache, dispose };
  } catch (error) {
    dispose(true);
    throw error;
  }
}

/** The new tokens' 0/1 mask as rows `[B, T]`: the given `[B, T]` or `[B, past + T]` (its last T columns), or ones. */
function tokenMaskOf(caller: string, attentionMask: DecoderInputs['attentionMask'], batch: number, length: number, past: number): Uint8Array[] {
  if (attentionMask === undefined) return Array.from({ length: batch }, () => new Uint8Array(length).fill(1));
  const read = readMaskIds(attentionMask as Parameters<typeof readMaskIds>[0], caller, 'attentionMask');
  if (read.batch !== batch || (read.length !== length && read.length !== past + length)) {
    throw new InvalidArgumentError({ caller, argument: 'attentionMask', expected: `[B, T] = ${formatShape([batch, length])} (the new tokens)${past > 0 ? ` or [B, S] = ${formatShape([batch, past + length])} (every position, the cache's ${past} first)` : ''}`, received: formatShape([read.batch, read.length]) });
  }
  const skip = read.length - length;
  return Array.from({ length: batch }, (_, b) => read.values.slice(b * read.length + skip, (b + 1) * read.length));
}

/** GPT-2's learned positions: every position id below the table's `n_positions` rows. */
function checkLearnedPositions(caller: string, positionIds: Tensor, rows: number): void {
  // the ids' own values (made on the CPU from the mask, or given): a max() kernel would put the answer on the GPU, and
  // reading that back synchronously is a canvas round trip on WebGPU (one that SwiftShader returns as zeros)
  let value = 0;
  for (const position of positionIds.dataSync()) value = Math.max(value, position);
  if (value >= rows) {
    throw new InvalidArgumentError({ caller, argument: 'inputIds', expected: `positions below n_positions = ${rows} (the learned position table)`, received: `position ${value}`, hint: 'Shorten the prompt, or generate fewer tokens: GPT-2 has no position past its table.' });
  }
}
