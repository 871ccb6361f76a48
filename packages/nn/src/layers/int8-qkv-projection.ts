import { concat, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { int8MatMul, type InputNormOption } from '@attnkit/kernels';
import { checkWidth } from './check-width.js';
import { fusedInt8Weight, int8Fusable } from './fused-int8-weight.js';
import { Int8Linear } from './int8-linear.js';

/**
 * Whether {@link int8QkvProjection} can run these three layers as one product: three live
 * `Int8Linear`s of the same input width and kernel, with a bias each or none at all.
 *
 * @example
 * if (int8QkvFusable(self.query, self.key, self.value)) qkv = int8QkvProjection(self.query, self.key, self.value, hidden);
 */
export function int8QkvFusable(query: unknown, key: unknown, value: unknown): boolean {
  return int8Fusable([query, key, value]);
}

/**
 * The query, key and value projections of one input as a single int8 product:
 * `concat([query.forward(x), key.forward(x), value.forward(x)], -1)`, bit for bit (each output
 * column is computed from the same quantized rows of `x` and its own weight row, scale and bias),
 * in one kernel call: the activations quantized once, one pass of the threads, one output tensor
 * that `fusedQkvAttention` (`@attnkit/kernels`) reads without splitting it. The three frozen weights are
 * stacked once into one `[Eq + Ek + Ev, in]` int8 weight kept for the query layer.
 *
 * With `{ inputNorm }` (`int8MatMul`'s option, e.g. from `int8InputNorm`), each row of `x` is
 * normalized first, inside the product (a decoder's `input_layernorm`).
 *
 * Shapes: `x [..., in]` → `[..., Eq + Ek + Ev]`. Throws `InvalidArgumentError` when the three are
 * not fusable (see {@link int8QkvFusable}) or `x` is not `[..., in]`.
 *
 * @example
 * const qkv = int8QkvProjection(self.query, self.key, self.value, hidden); // [B, T, 384] -> [B, T, 1152]
 */
export function int8QkvProjection(query: Int8Linear, key: Int8Linear, value: Int8Linear, x: Tensor, options: { readonly inputNorm?: InputNormOption } = {}): Tensor {
  const caller = 'int8QkvProjection';
  if (!int8QkvFusable(query, key, value)) {
    throw new InvalidArgumentError({ caller, argument: 'query, key, value', expected: 'three live Int8Linear layers in eval mode of the same input width and kernel, each with a bias or none with one', received: [query, key, value].map((l) => (l instanceof Int8Linear ? `Int8Linear [${l.outFeatures}, ${l.inFeatures}]${l.bias === undefined ? ' without bias' : ''}` : describeValue(l))).join(', ') });
  }
  checkWidth(x, caller, 'x', query.inFeatures, 'inFeatures');
  const { inputNorm } = checkOptionKeys(options, ['inputNorm'], caller);
  const weight = fusedInt8Weight([query, key, value]);
  return tidy(() => {
    const bias = query.bias === undefined ? undefined : concat([query.bias, key.bias as Tensor, value.bias as Tensor]); // [Eq + Ek + Ev]
    return int8MatMul(x, weight, bias, { ...(query.options.kernel === undefined ? {} : { kernel: query.options.kernel }), ...(inputNorm === undefined ? {} : { inputNorm }) });
  });
}
