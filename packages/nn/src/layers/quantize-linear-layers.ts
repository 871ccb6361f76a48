import { checkBoolean, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { Int8KernelName } from '@attnkit/kernels';
import { Module } from '../module/module.js';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';

/** Options of {@link quantizeLinearLayers}. */
export interface QuantizeLinearLayersOptions {
  /** Leave the Linear at this dotted path (`pooler.dense`) float; default: quantize every one. */
  readonly skip?: (path: string) => boolean;
  /** Dispose each float Linear once replaced (default true). With `false` the caller owns them. */
  readonly dispose?: boolean;
  /** Force an int8 kernel (`'relaxed-simd'`, `'simd'`, `'js'`) for tests and benchmarks; default the fastest the engine runs. */
  readonly kernel?: Int8KernelName;
}

/**
 * Makes a model an int8 inference model in place: every `Linear` of the tree (found by
 * `namedModules()`; subclasses of `Linear`, whose forward may differ, are left alone) is replaced
 * by `Int8Linear.fromLinear` with `Module.replaceModule`, so the parents' fields
 * (`layer.attention.self.query`) and `ModuleList`s give the int8 layer and `forward` runs on it
 * unchanged (`x [..., in]` → `[..., out]`, the same contract). Weights are quantized per output
 * channel now; activations per row at each call. The float Linears are disposed unless
 * `dispose: false`. Returns the replaced paths in tree order (`[]` when the model has none).
 *
 * The model must be in eval mode (Int8Linear is inference only: train the float model, then
 * quantize). The tree is checked and every Int8Linear built before anything is replaced: on an
 * error (a non-finite weight, a root that is itself a Linear) the model is as it was and no
 * tensor is left behind. The bias of each Int8Linear is made on the active backend.
 *
 * @example
 * const model = await loadEncoder('./all-MiniLM-L6-v2');
 * quantizeLinearLayers(model, { skip: (path) => path.startsWith('pooler.') }); // ['encoder.layer.0.attention.self.query', ...]
 * model.forward(batch); // int8 matrix products; embeddings, LayerNorm, softmax stay float32
 */
export function quantizeLinearLayers(module: Module, options: QuantizeLinearLayersOptions = {}): string[] {
  const caller = 'quantizeLinearLayers';
  if (!(module instanceof Module)) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a Module', received: describeValue(module) });
  checkObject(options, { caller, argument: 'options', expected: 'an object of quantization options' });
  const { skip, kernel } = checkOptionKeys(options, ['skip', 'dispose', 'kernel'], caller);
  const dispose = checkBoolean(options.dispose, { caller, argument: 'dispose', fallback: true });
  if (skip !== undefined && typeof skip !== 'function') throw new InvalidArgumentError({ caller, argument: 'skip', expected: 'a function (path) => boolean', received: describeValue(skip) });
  const tree = module.namedModules(); // throws UseAfterDisposeError on a disposed model
  const byPath = new Map(tree);
  const found = tree.filter((entry): entry is [string, Linear] => Object.getPrototypeOf(entry[1]) === Linear.prototype && !(skip?.(entry[0]) ?? false));
  if (found.some(([path]) => path === '')) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a module containing Linear layers (a Linear itself cannot be replaced in place)', received: 'a Linear', hint: 'Use Int8Linear.fromLinear(linear) for a single layer.' });
  const training = found.filter(([, linear]) => linear.training).map(([path]) => path);
  if (training.length > 0) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a model in eval mode (Int8Linear is inference only)', received: `Linear layers in training mode (${training.slice(0, 3).join(', ')}${training.length > 3 ? ', ...' : ''})`, hint: 'Call model.eval() first; train the float model before quantizing it.' });

  // every Int8Linear first (one per Linear instance, tied layers share theirs), so a failure changes nothing
  const quantized = new Map<Linear, Int8Linear>();
  try {
    for (const [, linear] of found) if (!quantized.has(linear)) quantized.set(linear, Int8Linear.fromLinear(linear, kernel === undefined ? {} : { kernel }));
  } catch (error) {
    quantized.forEach((int8) => int8.dispose());
    throw error;
  }
  for (const [path, linear] of found) {
    const dot = path.lastIndexOf('.');
    const parent = byPath.get(path.slice(0, Math.max(dot, 0))) as Module; // '' is the root
    parent.replaceModule(path.slice(dot + 1), quantized.get(linear) as Int8Linear);
  }
  if (dispose) {
    const stillUsed = new Set(module.namedModules().map(([, m]) => m)); // a Linear shared with a skipped path stays alive there
    quantized.forEach((_, linear) => stillUsed.has(linear) || linear.dispose());
  }
  return found.map(([path]) => path);
}
