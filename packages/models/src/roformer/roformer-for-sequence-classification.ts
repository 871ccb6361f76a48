import { Module, skipInitialization, type StateDictSource } from '@attnkit/nn';
import { ClassificationHead } from '../classification/classification-head.js';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { ROBERTA_CLASSIFIER_KEYS } from '../roberta/roberta-for-sequence-classification.js';
import { RoFormerModel } from './roformer-model.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

const TABLE_KEY = 'roformer.encoder.embed_positions.weight';

/**
 * transformers' `RoFormerForSequenceClassification`: a {@link RoFormerModel} under `roformer`, then
 * `classifier` (`RoFormerClassificationHead`): dense → the config's `hidden_act` → out_proj on the
 * first token. Keys `roformer.*`, `classifier.dense.*`, `classifier.out_proj.*`; the constructor's
 * checkpoint is loaded strictly (`newHead`: a checkpoint without `classifier.*` gets one
 * initialised); without one, transformers' initialisation.
 *
 * `inputs` as {@link RoFormerModel.forward} → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./roformer-sentiment-folder');
 * const { logits } = model.forward(tokenizer.encode(['这部电影很好看'])); // [1, numLabels]
 */
export class RoFormerForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: SequenceClassificationConfig;
  readonly roformer: RoFormerModel;
  readonly classifier: ClassificationHead;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'RoFormerForSequenceClassification');
    this.config = checkModelType(config, ['roformer'], 'RoFormerForSequenceClassification') as SequenceClassificationConfig;
    let initialised: string[] = [];
    [this.roformer, this.classifier] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('roformer', new RoFormerModel(config)),
        this.registerModule('classifier', new ClassificationHead(config, config.hiddenAct)),
      ] as const);
      initialised = fillClassifier(this, checkpoint, { initializerRange: config.initializerRange, seed: options.seed, newKeys: [[TABLE_KEY], ...(options.newHead === true ? [ROBERTA_CLASSIFIER_KEYS] : [])] });
      if (checkpoint === undefined || initialised.includes(TABLE_KEY)) parts[0].encoder.get('embed_positions').reset(); // computed, not drawn: the values transformers stores
      return parts;
    });
    this.initialisedKeys = checkpoint === undefined ? [] : initialised.filter((key) => key !== TABLE_KEY);
  }

  /** Runs the encoder and the head: `{ logits [B, numLabels], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): SequenceClassifierOutputs {
    this.assertLive('RoFormerForSequenceClassification.forward');
    return classifyEncoded(this.roformer.forward(inputs), inputs, ({ lastHiddenState }) => this.classifier.forward(lastHiddenState)); // [B, T, E] -> [B, numLabels]
  }
}
