import { relu, sigmoid, softmax, tanh, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkTensor, describeValue, InvalidArgumentError } from '@attnkit/errors';

/** The activations a CrossEncoder applies to its logits: torch.nn's `Identity`, `Sigmoid`, `Tanh`, `ReLU` and `Softmax` (over the labels). */
export const CROSS_ENCODER_ACTIVATIONS = ['identity', 'sigmoid', 'tanh', 'relu', 'softmax'] as const;

/** One of {@link CROSS_ENCODER_ACTIVATIONS}. */
export type CrossEncoderActivation = (typeof CROSS_ENCODER_ACTIVATIONS)[number];

/** torch.nn's class names as sentence-transformers saves them (`fullname(activation_fn)`), and their shorter aliases. */
const TORCH_CLASSES: Readonly<Record<string, CrossEncoderActivation>> = { Identity: 'identity', Sigmoid: 'sigmoid', Tanh: 'tanh', ReLU: 'relu', Softmax: 'softmax' };
const TORCH_PATH = /^torch\.nn\.(?:modules\.(?:activation|linear)\.)?([A-Za-z]+)$/;

/**
 * The activation a dotted PyTorch path names, as sentence-transformers saves it:
 * `'torch.nn.modules.activation.Sigmoid'` (or `'torch.nn.Sigmoid'`) → `'sigmoid'`; `undefined` for
 * a path attnkit does not have.
 *
 * @example
 * activationOfTorchPath('torch.nn.modules.linear.Identity'); // 'identity'
 */
export function activationOfTorchPath(path: string): CrossEncoderActivation | undefined {
  const name = typeof path === 'string' ? TORCH_PATH.exec(path)?.[1] : undefined;
  return name !== undefined && Object.hasOwn(TORCH_CLASSES, name) ? TORCH_CLASSES[name] : undefined;
}

/**
 * Applies a CrossEncoder activation to logits `[B, L]` → `[B, L]` (a new tensor): `softmax` over
 * the labels (`torch.nn.Softmax()` on a matrix), the others elementwise.
 *
 * @example
 * const scores = applyCrossEncoderActivation(logits, 'sigmoid'); // [B, 1]
 */
export function applyCrossEncoderActivation(logits: Tensor, activation: CrossEncoderActivation): Tensor {
  const caller = 'applyCrossEncoderActivation';
  checkTensor(logits, { caller, argument: 'logits', dtype: 'float32', rank: 2, shape: '[B, L]' });
  if (!(CROSS_ENCODER_ACTIVATIONS as readonly unknown[]).includes(activation)) throw new InvalidArgumentError({ caller, argument: 'activation', expected: CROSS_ENCODER_ACTIVATIONS.map((a) => `'${a}'`).join(', '), received: describeValue(activation) });
  return tidy(() => {
    switch (activation) {
      case 'sigmoid':
        return sigmoid(logits);
      case 'tanh':
        return tanh(logits);
      case 'relu':
        return relu(logits);
      case 'softmax':
        return softmax(logits, -1);
      default:
        return logits.clone();
    }
  });
}
