import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkObject } from '@attnkit/errors';
import { LayerNorm, Linear, Module, activationByName, type ActivationFunction } from '@attnkit/nn';
import type { ModernBertConfig } from './modernbert-config.js';

/**
 * `head`: transformers' `ModernBertPredictionHead`, shared by the masked-LM and the classifiers —
 * `norm(act(dense(x)))` with `classifier_activation` (`dense` has a bias with `classifier_bias`,
 * `norm` with `norm_bias`). `x [..., E]` → `[..., E]`.
 *
 * @example
 * const pooled = model.head.forward(first); // [B, E] -> [B, E]
 */
export class ModernBertPredictionHead extends Module {
  readonly dense: Linear;
  readonly norm: LayerNorm;
  readonly activation: ActivationFunction;

  constructor(c: ModernBertConfig) {
    super();
    checkObject(c, { caller: 'ModernBertPredictionHead', argument: 'config', expected: 'a parsed ModernBERT config (parseModernBertConfig)' });
    this.activation = activationByName(c.classifierActivation, 'ModernBertPredictionHead');
    [this.dense, this.norm] = this.guard(() => [
      this.registerModule('dense', new Linear(c.hiddenSize, c.hiddenSize, { bias: c.classifierBias })),
      this.registerModule('norm', new LayerNorm(c.hiddenSize, { eps: c.layerNormEps, bias: c.normBias })),
    ] as const);
  }

  forward(x: Tensor): Tensor {
    this.assertLive('ModernBertPredictionHead.forward');
    return tidy(() => this.norm.forward(this.activation(this.dense.forward(x))));
  }
}

/** The keys of a `head` built from `config`: `head.dense.weight`, `head.norm.weight` and the biases the config has. */
export function predictionHeadKeys(config: ModernBertConfig): string[] {
  return ['head.dense.weight', ...(config.classifierBias ? ['head.dense.bias'] : []), 'head.norm.weight', ...(config.normBias ? ['head.norm.bias'] : [])];
}
