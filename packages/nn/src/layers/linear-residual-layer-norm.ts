import { add, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { Dropout } from './dropout.js';
import { Int8Linear } from './int8-linear.js';
import { LayerNorm } from './layer-norm.js';
import { Linear } from './linear.js';

/**
 * A post-LN block's output: `layerNorm(dropout(linear(x)) + residual)`. When the LayerNorm has
 * its weight and bias and the dropout is in eval mode (an identity), it is
 * `linear.forward(x, { residualLayerNorm })`: the residual add and the LayerNorm run inside the
 * kernel where one runs (an `Int8Linear`; a `Linear` on wasm outside gradient recording), threaded
 * by rows, with the numbers of tfjs' add and the wasm backend's LayerNorm kernel. Otherwise the
 * ops as written.
 * Shapes: `x [..., in]`, `residual [..., out]` → `[..., out]`.
 *
 * @example
 * const hidden = linearResidualLayerNorm(output.dense, intermediate, attended, output.layerNorm, output.dropout); // [B, T, E]
 */
export function linearResidualLayerNorm(linear: Linear | Int8Linear, x: Tensor, residual: Tensor, layerNorm: LayerNorm, dropout: Dropout): Tensor {
  const caller = 'linearResidualLayerNorm';
  if (!(linear instanceof Linear || linear instanceof Int8Linear)) throw new InvalidArgumentError({ caller, argument: 'linear', expected: 'a Linear or an Int8Linear', received: describeValue(linear) });
  if (!(layerNorm instanceof LayerNorm)) throw new InvalidArgumentError({ caller, argument: 'layerNorm', expected: 'a LayerNorm', received: describeValue(layerNorm) });
  if (!(dropout instanceof Dropout)) throw new InvalidArgumentError({ caller, argument: 'dropout', expected: 'a Dropout', received: describeValue(dropout) });
  const { weight: gamma, bias: beta } = layerNorm;
  if (gamma !== undefined && beta !== undefined && !dropout.training) {
    return linear.forward(x, { residualLayerNorm: { residual, gamma, beta, epsilon: layerNorm.eps } });
  }
  return tidy(() => layerNorm.forward(add(dropout.forward(linear.forward(x)), residual)));
}
