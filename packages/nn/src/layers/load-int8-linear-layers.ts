import { checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { checkInt8Weight, type Int8KernelName, type Int8Weight } from '@attnkit/kernels';
import { Module } from '../module/module.js';
import { Int8Linear } from './int8-linear.js';
import { Linear } from './linear.js';

/** Options of {@link loadInt8LinearLayers}. */
export interface LoadInt8LinearLayersOptions {
  /** Force an int8 kernel (`'relaxed-simd'`, `'simd'`, `'js'`) for tests and benchmarks; default the fastest the engine runs. */
  readonly kernel?: Int8KernelName;
}

/**
 * Makes a model an int8 inference model in place from int8 weights as a checkpoint stores them:
 * the `Linear` at each dotted path of `weights` (`encoder.layer.0.attention.self.query`) is
 * replaced by `new Int8Linear(weight, linear.bias)` — the int8 values `[out, in]` and scales
 * `[out]` are used as they are (copied into each layer, never widened to float) — with `Module.replaceModule`, and the
 * Linear is disposed. `quantizeLinearLayers` is the same for a float model (it quantizes the float
 * weights itself); a folder holding both gives the same layers, bit for bit.
 *
 * Everything is checked before anything is replaced, and every problem is listed in one
 * `InvalidArgumentError`: a path that names no module, or a module that is not a `Linear` (an
 * `Embedding`, a `Linear` subclass, the root), a weight whose widths differ from the Linear's, a
 * Linear in training mode. On an error the model is as it was and no tensor is left behind.
 * Returns the replaced paths in tree order.
 *
 * @example
 * const model = skipInitialization(() => new BertModel(config)); // zeros: the values come next
 * model.loadStateDict(floatTensors, { strict: false }); // embeddings, LayerNorm, biases
 * loadInt8LinearLayers(model, new Map([['pooler.dense', { values, scales, inFeatures: 32, outFeatures: 32 }]]));
 */
export function loadInt8LinearLayers(module: Module, weights: ReadonlyMap<string, Int8Weight>, options: LoadInt8LinearLayersOptions = {}): string[] {
  const caller = 'loadInt8LinearLayers';
  if (!(module instanceof Module)) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a Module', received: describeValue(module) });
  if (!(weights instanceof Map)) throw new InvalidArgumentError({ caller, argument: 'weights', expected: 'a Map of dotted Linear path → Int8Weight', received: describeValue(weights) });
  checkObject(options, { caller, argument: 'options', expected: 'an object { kernel? }' });
  const { kernel } = checkOptionKeys(options, ['kernel'], caller);
  const tree = module.namedModules(); // throws UseAfterDisposeError on a disposed model
  const byPath = new Map(tree);
  const problems: string[] = [];
  const found: Array<[string, Linear, Int8Weight]> = [];
  for (const [path, weight] of weights) {
    const target = byPath.get(path);
    checkInt8Weight(weight, caller, `weights.get(${JSON.stringify(path)})`);
    if (target === undefined || path === '') problems.push(`'${path}' names ${path === '' ? 'the root, which cannot be replaced in place' : 'no module of the model'}`);
    else if (Object.getPrototypeOf(target) !== Linear.prototype) problems.push(`'${path}' is ${/^[AEIOU]/.test(target.constructor.name) ? 'an' : 'a'} ${target.constructor.name || 'module'}, not a Linear`);
    else if ((target as Linear).inFeatures !== weight.inFeatures || (target as Linear).outFeatures !== weight.outFeatures) problems.push(`'${path}' is a Linear [out, in] = [${(target as Linear).outFeatures}, ${(target as Linear).inFeatures}] but its int8 weight is [${weight.outFeatures}, ${weight.inFeatures}]`);
    else if (target.training) problems.push(`'${path}' is in training mode (Int8Linear is inference only: call eval() first)`);
    else found.push([path, target as Linear, weight]);
  }
  if (problems.length > 0) throw new InvalidArgumentError({ caller, argument: 'weights', expected: 'int8 weights for Linear layers of the model in eval mode, of their widths', received: `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}` });

  const built: Int8Linear[] = [];
  try {
    for (const [, linear, weight] of found) built.push(new Int8Linear(weight, linear.bias, kernel === undefined ? {} : { kernel }));
  } catch (error) {
    built.forEach((int8) => int8.dispose());
    throw error;
  }
  found.forEach(([path], i) => {
    const dot = path.lastIndexOf('.');
    (byPath.get(path.slice(0, Math.max(dot, 0))) as Module).replaceModule(path.slice(dot + 1), built[i] as Int8Linear); // '' is the root
  });
  const stillUsed = new Set(module.namedModules().map(([, m]) => m)); // a Linear shared with another path stays alive there
  found.forEach(([, linear]) => stillUsed.has(linear) || linear.isDisposed || linear.dispose());
  const order = tree.map(([path]) => path);
  return found.map(([path]) => path).sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
