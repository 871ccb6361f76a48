import { Module, skipInitialization, type StateDictSource } from '@attnkit/nn';
import { ClassificationHead } from '../classification/classification-head.js';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { ROBERTA_CLASSIFIER_KEYS } from '../roberta/roberta-for-sequence-classification.js';
import { ElectraModel } from './electra-model.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/**
 * transformers' `ElectraForSequenceClassification`: an {@link ElectraModel} under `electra`, then
 * `classifier` (`ElectraClassificationHead`): dense → GELU → out_proj on the first token — RoBERTa's
 * head with GELU instead of tanh. Keys `electra.*`, `classifier.dense.*`, `classifier.out_proj.*`;
 * the constructor's checkpoint is loaded strictly (`newHead`: a checkpoint without `classifier.*`
 * gets one initialised); without one, transformers' initialisation.
 *
 * `inputs` as {@link ElectraModel.forward} → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./electra-base-discriminator-finetuned-sst-2');
 * const { logits } = model.forward(tokenizer.encode(['A great film.'])); // [1, 2]
 */
export class ElectraForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: SequenceClassificationConfig;
  readonly electra: ElectraModel;
  readonly classifier: ClassificationHead;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'ElectraForSequenceClassification');
    this.config = checkModelType(config, ['electra'], 'ElectraForSequenceClassification') as SequenceClassificationConfig;
    let initialised: string[] = [];
    [this.electra, this.classifier] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('electra', new ElectraModel(config)),
        this.registerModule('classifier', new ClassificationHead(config, 'gelu')),
      ] as const);
      initialised = fillClassifier(this, checkpoint, { initializerRange: config.initializerRange, seed: options.seed, newKeys: options.newHead === true ? [ROBERTA_CLASSIFIER_KEYS] : [] });
      return parts;
    });
    this.initialisedKeys = checkpoint === undefined ? [] : initialised;
  }

  /** Runs the encoder and the head: `{ logits [B, numLabels], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): SequenceClassifierOutputs {
    this.assertLive('ElectraForSequenceClassification.forward');
    return classifyEncoded(this.electra.forward(inputs), inputs, ({ lastHiddenState }) => this.classifier.forward(lastHiddenState)); // [B, T, E] -> [B, numLabels]
  }
}
