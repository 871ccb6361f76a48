import { Dropout, Linear, Module, skipInitialization, type StateDictSource } from '@attnkit/nn';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { BertModel } from './bert-model.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/** The head keys of {@link BertForSequenceClassification}; the pooler it reads is the encoder's (`bert.pooler.*`). */
export const BERT_CLASSIFIER_KEYS = ['classifier.weight', 'classifier.bias'] as const;

/**
 * transformers' `BertForSequenceClassification`: a {@link BertModel} under `bert`, then dropout and
 * `classifier` (a Linear) on the pooler output `tanh(dense(h[:, 0]))`. The module tree is the
 * checkpoint's (`bert.encoder.layer.0.attention.self.query.weight`, `classifier.weight`), so the
 * constructor's checkpoint is the folder's tensors by those keys, loaded strictly (`newHead`: a
 * checkpoint without `classifier.*` or without `bert.pooler.*` gets them initialised). Without a
 * checkpoint, transformers' initialisation (`seed`).
 *
 * `inputs` as {@link BertModel.forward} → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./ms-marco-MiniLM-L6-v2'); // a BertForSequenceClassification
 * const { logits } = model.forward(tokenizer.encode([['query', 'passage']])); // [1, 1]
 */
export class BertForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: SequenceClassificationConfig;
  readonly bert: BertModel;
  readonly dropout: Dropout;
  readonly classifier: Linear;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'BertForSequenceClassification');
    this.config = checkModelType(config, ['bert'], 'BertForSequenceClassification') as SequenceClassificationConfig;
    let initialised: string[] = [];
    [this.bert, this.dropout, this.classifier] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('bert', new BertModel(config)),
        this.registerModule('dropout', new Dropout(config.classifierDropout)),
        this.registerModule('classifier', new Linear(config.hiddenSize, config.numLabels)),
      ] as const);
      const newKeys = options.newHead === true ? [BERT_CLASSIFIER_KEYS, ['bert.pooler.dense.weight', 'bert.pooler.dense.bias']] : [];
      initialised = fillClassifier(this, checkpoint, { initializerRange: config.initializerRange, seed: options.seed, newKeys });
      return parts;
    });
    this.initialisedKeys = checkpoint === undefined ? [] : initialised;
  }

  /** Runs the encoder and the head: `{ logits [B, numLabels], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): SequenceClassifierOutputs {
    this.assertLive('BertForSequenceClassification.forward');
    return classifyEncoded(this.bert.forward(inputs), inputs, ({ poolerOutput }) => this.classifier.forward(this.dropout.forward(poolerOutput!))); // [B, E] -> [B, numLabels]
  }
}
