import { InvalidArgumentError } from '@attnkit/errors';
import { Int8Linear, type Module } from '@attnkit/nn';

/**
 * Refuses a model holding `Int8Linear` layers (`quantize: 'int8'`) where float weights are needed:
 * training (int8 weights have no gradient, so only the float parts would move) and saving (the int8
 * weights are not parameters, so the folder would miss them). Throws `InvalidArgumentError` naming
 * the first layers; returns nothing for a float model.
 *
 * @example
 * checkFloatModel([model.encoder], 'trainSentenceEncoder', 'train');
 */
export function checkFloatModel(modules: readonly Module[], caller: string, action: 'train' | 'save'): void {
  const quantized = modules.flatMap((module) => module.namedModules().filter(([, m]) => m instanceof Int8Linear).map(([path]) => path));
  if (quantized.length === 0) return;
  const why = action === 'train' ? 'int8 weights have no gradient' : 'int8 weights are not saved as parameters';
  throw new InvalidArgumentError({
    caller,
    argument: 'model',
    expected: `a float model (Int8Linear layers are inference only: ${why})`,
    received: `an int8 model (${quantized.length} Int8Linear layers: ${quantized.slice(0, 2).join(', ')}${quantized.length > 2 ? ', ...' : ''})`,
    hint: `Load it without quantize: 'int8' to ${action} it; quantize when loading the saved folder for inference.`,
  });
}
