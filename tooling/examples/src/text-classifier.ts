import { add, cast, div, expandDims, mul, notEqual, range, reshape, sum, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { TransformerEncoder } from '@attnkit/attention';
import { Embedding, Linear, Module } from '@attnkit/nn';

export interface TextClassifierConfig {
  readonly vocabSize: number;
  readonly maxLength: number;
  readonly width: number;
  readonly numHeads: number;
  readonly numClasses: number;
  readonly seed?: number;
}

/** Token + position embeddings → 2 pre-LN encoder layers → mean pooling over real tokens → Linear. */
export class TextClassifier extends Module {
  readonly tokens: Embedding;
  readonly positions: Embedding;
  readonly encoder: TransformerEncoder;
  readonly head: Linear;

  constructor(c: TextClassifierConfig) {
    super();
    const seed = c.seed ?? 0;
    [this.tokens, this.positions, this.encoder, this.head] = this.guard(() => [
      this.registerModule('tokens', new Embedding(c.vocabSize, c.width, { paddingIdx: 0, seed })),
      this.registerModule('positions', new Embedding(c.maxLength, c.width, { seed: seed + 1 })),
      this.registerModule('encoder', new TransformerEncoder({
        embedDim: c.width, numHeads: c.numHeads, feedForwardDim: 4 * c.width, numLayers: 2,
        normFirst: true, finalNorm: true, activation: 'gelu', dropout: 0.1, seed: seed + 2,
      })),
      this.registerModule('head', new Linear(c.width, c.numClasses, { seed: seed + 3 })),
    ] as const);
  }

  /** `ids` int32 `[B, T]` (0 = padding) → logits `[B, numClasses]`. */
  forward(ids: Tensor): Tensor {
    return tidy(() => {
      const [batch = 0, length = 0] = ids.shape;
      const x = add(this.tokens.forward(ids), this.positions.forward(range(0, length, 1, 'int32'))); // [B, T, E]
      const real = notEqual(ids, 0); // [B, T], true = a token
      const { lastHiddenState } = this.encoder.forward(x, { attentionMask: reshape(real, [batch, 1, 1, length]) });
      const weights = expandDims(cast(real, 'float32'), -1); // [B, T, 1]
      const pooled = div(sum(mul(lastHiddenState, weights), 1), sum(weights, 1)); // [B, E]
      return this.head.forward(pooled); // [B, numClasses]
    });
  }
}
