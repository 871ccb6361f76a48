import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import type { Module } from '@attnkit/nn';
import type { EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import type { SequenceClassificationConfig } from './classification-config.js';

/** Named outputs of a sequence classifier's `forward`; the caller disposes them. */
export interface SequenceClassifierOutputs {
  /** `[B, numLabels]`: one score per label, before any activation (transformers' `logits`). */
  readonly logits: Tensor;
  /** With `outputHiddenStates`: the encoder's embeddings and every layer's output, `[B, T, E]` each. */
  readonly hiddenStates?: Tensor[];
  /** With `outputAttentions`: every layer's attention weights `[B, H, T, T]`. */
  readonly attentions?: Tensor[];
}

/**
 * What every `…ForSequenceClassification` offers: a `Module` in transformers' tree (the encoder under
 * its family's name, the head under `classifier`, DistilBERT's also under `pre_classifier`), whose
 * `forward` turns token ids (single texts or pairs) into logits `[B, numLabels]`.
 * `loadSequenceClassifier` returns one.
 *
 * @example
 * const model: SequenceClassifier = await loadSequenceClassifier('./nli-deberta-folder');
 * const { logits } = model.forward(tokenizer.encode([['A man eats.', 'Someone is eating.']])); // [1, numLabels]
 * model.config.id2label; // ['contradiction', 'entailment', 'neutral']
 */
export interface SequenceClassifier extends Module {
  readonly config: SequenceClassificationConfig;
  /** Parameters the folder did not hold, initialised as transformers does (a new head, when asked for); empty otherwise. */
  readonly initialisedKeys: readonly string[];
  forward(inputs: EncoderInputs): SequenceClassifierOutputs;
}

/** Options of the `…ForSequenceClassification` constructors. */
export interface SequenceClassifierBuildOptions {
  /** Makes a random initialisation reproducible. */
  readonly seed?: number;
  /**
   * With a checkpoint that has no head (a base model's tensors): initialise the head as transformers
   * does instead of refusing the checkpoint. A checkpoint with part of a head is refused either way.
   */
  readonly newHead?: boolean;
}

/**
 * A classifier's forward after its encoder's: `head` turns the encoder's outputs into logits
 * `[B, numLabels]` (inside a tidy); the hidden states and attentions are passed on when asked for,
 * every other encoder output is disposed (all of them if the head throws).
 *
 * @example
 * return classifyEncoded(this.bert.forward(inputs), inputs, (encoded) => this.classifier.forward(encoded.poolerOutput!));
 */
export function classifyEncoded(encoded: EncoderOutputs, inputs: EncoderInputs, head: (encoded: EncoderOutputs) => Tensor): SequenceClassifierOutputs {
  const kept = new Set([...(inputs.outputHiddenStates === true ? (encoded.hiddenStates ?? []) : []), ...(inputs.outputAttentions === true ? (encoded.attentions ?? []) : [])]);
  const rest = [encoded.lastHiddenState, ...(encoded.poolerOutput === undefined ? [] : [encoded.poolerOutput]), ...(encoded.hiddenStates ?? []), ...(encoded.attentions ?? [])].filter((t) => !kept.has(t));
  try {
    const logits = tidy(() => head(encoded)); // [B, numLabels]
    return {
      logits,
      ...(inputs.outputHiddenStates === true && encoded.hiddenStates !== undefined ? { hiddenStates: encoded.hiddenStates } : {}),
      ...(inputs.outputAttentions === true && encoded.attentions !== undefined ? { attentions: encoded.attentions } : {}),
    };
  } catch (error) {
    kept.forEach((t) => t.dispose());
    throw error;
  } finally {
    new Set(rest).forEach((t) => t.dispose());
  }
}
