import { squeeze, slice, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkObject, checkTensor } from '@attnkit/errors';
import { Dropout, Linear, Module, activationByName, type ActivationFunction } from '@attnkit/nn';
import type { SequenceClassificationConfig } from './classification-config.js';

/**
 * `classifier`: the sentence-level head transformers gives RoBERTa, XLM-R, MPNet (`tanh`) and
 * ELECTRA (`gelu`) — the first token's hidden state, dropout, `dense`, the activation, dropout,
 * `out_proj`. `hidden [B, T, E]` → logits `[B, numLabels]`. Keys `dense.*`, `out_proj.*`.
 *
 * @example
 * const head = new ClassificationHead(config, 'tanh');
 * const logits = head.forward(lastHiddenState); // [B, T, E] -> [B, numLabels]
 */
export class ClassificationHead extends Module {
  readonly dense: Linear;
  readonly dropout: Dropout;
  readonly outProj: Linear;
  readonly activation: ActivationFunction;

  /** `activation`: a Hugging Face activation name (`'tanh'`: RoBERTa, XLM-R, MPNet; `'gelu'`: ELECTRA). */
  constructor(config: SequenceClassificationConfig, activation: string) {
    super();
    checkObject(config, { caller: 'ClassificationHead', argument: 'config', expected: 'a parsed sequence-classification config (parseSequenceClassificationConfig)' });
    this.activation = activationByName(activation, 'ClassificationHead');
    [this.dense, this.dropout, this.outProj] = this.guard(() => [
      this.registerModule('dense', new Linear(config.hiddenSize, config.hiddenSize)),
      this.registerModule('dropout', new Dropout(config.classifierDropout)),
      this.registerModule('out_proj', new Linear(config.hiddenSize, config.numLabels)),
    ] as const);
  }

  forward(hidden: Tensor): Tensor {
    this.assertLive('ClassificationHead.forward');
    checkTensor(hidden, { caller: 'ClassificationHead.forward', argument: 'hidden', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
    return tidy(() => {
      const first = squeeze(slice(hidden, [0, 0, 0], [-1, 1, -1]), [1]); // [B, T, E] -> [B, E]: the <s> / [CLS] token
      const x = this.activation(this.dense.forward(this.dropout.forward(first))); // [B, E]
      return this.outProj.forward(this.dropout.forward(x)); // [B, E] -> [B, numLabels]
    });
  }
}
