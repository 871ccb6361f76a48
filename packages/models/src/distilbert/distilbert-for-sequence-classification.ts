import { relu, slice, squeeze } from '@tensorflow/tfjs-core';
import { Dropout, Linear, Module, skipInitialization, type StateDictSource } from '@attnkit/nn';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { DistilBertModel } from './distilbert-model.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/** The head keys of {@link DistilBertForSequenceClassification}. */
export const DISTILBERT_CLASSIFIER_KEYS = ['pre_classifier.weight', 'pre_classifier.bias', 'classifier.weight', 'classifier.bias'] as const;

/**
 * transformers' `DistilBertForSequenceClassification`: a {@link DistilBertModel} under
 * `distilbert`, then on the first token `pre_classifier` → ReLU → dropout (`seq_classif_dropout`) →
 * `classifier`. Keys `distilbert.*`, `pre_classifier.*`, `classifier.*`; the constructor's checkpoint
 * is loaded strictly (`newHead`: a checkpoint without the head gets one initialised); without one,
 * transformers' initialisation.
 *
 * `inputs` as {@link DistilBertModel.forward} → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./distilbert-base-uncased-finetuned-sst-2-english');
 * const { logits } = model.forward(tokenizer.encode(['A great film.'])); // [1, 2]: NEGATIVE, POSITIVE
 */
export class DistilBertForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: SequenceClassificationConfig;
  readonly distilbert: DistilBertModel;
  readonly preClassifier: Linear;
  readonly classifier: Linear;
  readonly dropout: Dropout;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'DistilBertForSequenceClassification');
    this.config = checkModelType(config, ['distilbert'], 'DistilBertForSequenceClassification') as SequenceClassificationConfig;
    let initialised: string[] = [];
    [this.distilbert, this.preClassifier, this.classifier, this.dropout] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('distilbert', new DistilBertModel(config)),
        this.registerModule('pre_classifier', new Linear(config.hiddenSize, config.hiddenSize)),
        this.registerModule('classifier', new Linear(config.hiddenSize, config.numLabels)),
        this.registerModule('dropout', new Dropout(config.classifierDropout)),
      ] as const);
      initialised = fillClassifier(this, checkpoint, { initializerRange: config.initializerRange, seed: options.seed, newKeys: options.newHead === true ? [DISTILBERT_CLASSIFIER_KEYS] : [] });
      return parts;
    });
    this.initialisedKeys = checkpoint === undefined ? [] : initialised;
  }

  /** Runs the encoder and the head: `{ logits [B, numLabels], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): SequenceClassifierOutputs {
    this.assertLive('DistilBertForSequenceClassification.forward');
    return classifyEncoded(this.distilbert.forward(inputs), inputs, ({ lastHiddenState }) => {
      const first = squeeze(slice(lastHiddenState, [0, 0, 0], [-1, 1, -1]), [1]); // [B, T, E] -> [B, E]
      const pooled = this.dropout.forward(relu(this.preClassifier.forward(first))); // [B, E]
      return this.classifier.forward(pooled); // [B, E] -> [B, numLabels]
    });
  }
}
