import type { Tensor } from '@tensorflow/tfjs-core';
import { checkTensor } from '@attnkit/errors';
import { Module } from '@attnkit/nn';
import { checkRotaryConfig, type ResolvedRotaryConfig } from './check-rotary-config.js';
import type { RotaryConfig } from './rotary-config.js';
import { rotaryCosSin, type RotaryCosSin } from './rotary-cos-sin.js';
import { frequenciesOf, type RotaryFrequencies } from './rotary-frequencies.js';

/**
 * Rotary position embeddings as a module, equal to transformers' `LlamaRotaryEmbedding` (a model's
 * `rotary_emb`): the frequencies of the config (`rotaryFrequencies`), and `forward(positionIds)`
 * → the `cos` and `sin` tables every attention layer of the model shares. No parameters (transformers
 * keeps `inv_freq` out of the state dict too).
 *
 * `dynamic` keeps transformers' state between calls: when a call's sequence length (its largest
 * position id + 1, read from `positionIds`, one synchronous read) passes the longest seen, the
 * frequencies are recomputed for it; when it falls back below `maxPositionEmbeddings`, they are
 * reset. The other types compute their tables from the frequencies alone.
 *
 * `positionIds` int32 `[B, T]` → `{ cos, sin }` float32 `[B, T, R]`.
 *
 * @example
 * const rotary = new RotaryEmbedding(rotaryConfigFromHuggingFace(config));
 * const { cos, sin } = rotary.forward(positionIds); // shared by every layer of the step
 */
export class RotaryEmbedding extends Module {
  readonly config: ResolvedRotaryConfig;
  readonly #original: RotaryFrequencies;
  #frequencies: RotaryFrequencies;
  #longestSeen: number;

  constructor(config: RotaryConfig) {
    super();
    this.config = checkRotaryConfig(config, 'RotaryEmbedding');
    this.#original = frequenciesOf(this.config);
    this.#frequencies = this.#original;
    this.#longestSeen = this.config.maxPositionEmbeddings ?? 0;
  }

  /** The frequencies the next call uses (for `dynamic`, those the last call left). */
  get frequencies(): RotaryFrequencies {
    return this.#frequencies;
  }

  /** `positionIds` int32 `[B, T]` → `cos`, `sin` `[B, T, R]` (the caller disposes both). */
  forward(positionIds: Tensor): RotaryCosSin {
    const caller = 'RotaryEmbedding.forward';
    this.assertLive(caller);
    checkTensor(positionIds, { caller, argument: 'positionIds', dtype: 'int32', rank: 2, shape: '[B, T]', dtypeHint: 'Position ids are int32 (positionIdsFromMask() makes them from an attention mask).' });
    if (this.config.ropeType === 'dynamic') this.#updateDynamic(positionIds);
    return rotaryCosSin(positionIds, this.#frequencies);
  }

  /** transformers' `dynamic_frequency_update`: grow past the longest length seen, reset below the original one. */
  #updateDynamic(positionIds: Tensor): void {
    const original = this.config.maxPositionEmbeddings as number;
    let seqLen = 0;
    for (const position of positionIds.dataSync()) seqLen = Math.max(seqLen, position + 1);
    if (seqLen > this.#longestSeen) {
      this.#frequencies = frequenciesOf(this.config, seqLen);
      this.#longestSeen = seqLen;
    }
    if (seqLen < original && this.#longestSeen > original) {
      this.#frequencies = this.#original;
      this.#longestSeen = original;
    }
  }
}
