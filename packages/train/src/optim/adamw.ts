import '@attnkit/backends/gradients'; // minimize() takes gradients: tfjs-core alone registers none (this works in Node and bundlers)
import { Optimizer, Variable, add, dispose, mul, sqrt, square, sub, div, tensor, tidy, variable, zerosLike, type NamedTensorMap, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, UseAfterDisposeError, checkObject, checkOptionKeys, checkTensor, describeValue, formatShape, summarizeList } from '@attnkit/errors';
import { LayerNorm, Module, type TensorData } from '@attnkit/nn';
import { isNoDecayParameter } from './no-decay.js';

/** Options of {@link AdamW}; the defaults are `torch.optim.AdamW`'s. */
export interface AdamWOptions {
  /** Learning rate (default 1e-3); change it every step through `optimizer.learningRate`. */
  readonly learningRate?: number;
  /** Decay rates of the first and second moments (default `[0.9, 0.999]`), each in `[0, 1)`. */
  readonly betas?: readonly [number, number];
  /** Added to the denominator (default 1e-8). */
  readonly eps?: number;
  /** Decoupled weight decay (default 0.01), for the parameters `noDecay` does not exempt. */
  readonly weightDecay?: number;
  /** Parameters (by dotted name) that get no weight decay. Default {@link isNoDecayParameter}, the Hugging Face Trainer's rule. */
  readonly noDecay?: (name: string) => boolean;
}

/** The moments of one parameter, as PyTorch's `optimizer.state[p]`. */
export interface AdamWParameterState {
  readonly step: number;
  readonly expAvg: TensorData;
  readonly expAvgSq: TensorData;
}

/** What {@link AdamW.exportState} returns and {@link AdamW.importState} takes (plain data: write it with `writeSafetensors` or JSON). */
export interface AdamWState {
  /** Calls of `applyGradients` so far (`optimizer.iterations`). */
  readonly step: number;
  readonly learningRate: number;
  /** By parameter name; a parameter that never had a gradient has no entry, as in PyTorch. */
  readonly parameters: Readonly<Record<string, AdamWParameterState>>;
}

/** tfjs' `NamedTensor` (not exported from tfjs-core's index). */
export type NamedTensor = { name: string; tensor: Tensor };

interface Slot {
  readonly name: string;
  readonly parameter: Variable;
  readonly decay: boolean;
  step: number;
  moments: { expAvg: Variable; expAvgSq: Variable } | undefined;
}

/**
 * `torch.optim.AdamW` as a tfjs `Optimizer`: per step, `p ← p·(1 − lr·wd)` (decoupled decay, only
 * for parameters that decay), then Adam with bias correction,
 * `p ← p − lr/(1 − β₁ᵗ) · m / (√v / √(1 − β₂ᵗ) + eps)`. The optimiser owns a fixed list of named
 * parameters; a `Module` gives its trainable ones, and then — as the Hugging Face `Trainer` does —
 * biases, normalisation weights and every parameter of a `LayerNorm` get no weight decay.
 *
 * Use it with `minimize` (by default over its own parameters) or with `variableGrads` and
 * `applyGradients` (gradients keyed by variable name, as `variableGrads` returns them), e.g. to
 * clip them first. A parameter without a gradient in a step is left alone, as in PyTorch.
 *
 * @example
 * const optimizer = new AdamW(model, { learningRate: 2e-5, weightDecay: 0.01 });
 * const schedule = linearScheduleWithWarmup({ warmupSteps: 100, totalSteps: 1000 });
 * optimizer.learningRate = 2e-5 * schedule(optimizer.iterations);
 * optimizer.minimize(() => multipleNegativesRankingLoss(model.forward(a), model.forward(p)));
 */
export class AdamW extends Optimizer {
  static get className(): string {
    return 'AdamW';
  }

  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  readonly weightDecay: number;
  readonly #slots: Slot[] = [];
  readonly #byVariable = new Map<string, Slot>();
  #learningRate = 1e-3;
  #disposed = false;

  constructor(parameters: Module | Iterable<readonly [string, Variable]>, options: AdamWOptions = {}) {
    super();
    const caller = 'AdamW';
    const { learningRate = 1e-3, betas = [0.9, 0.999], eps = 1e-8, weightDecay = 0.01, noDecay = isNoDecayParameter } = checkOptionKeys(options, ['learningRate', 'betas', 'eps', 'weightDecay', 'noDecay'], caller);
    this.learningRate = learningRate;
    if (!Array.isArray(betas) || betas.length !== 2 || !betas.every((b) => typeof b === 'number' && b >= 0 && b < 1)) {
      throw new InvalidArgumentError({ caller, argument: 'betas', expected: 'two numbers in [0, 1), e.g. [0.9, 0.999]', received: describeValue(betas) });
    }
    [this.beta1, this.beta2] = betas;
    this.epsilon = checkNonNegative(eps, caller, 'eps');
    this.weightDecay = checkNonNegative(weightDecay, caller, 'weightDecay');
    if (typeof noDecay !== 'function') throw new InvalidArgumentError({ caller, argument: 'noDecay', expected: 'a function (name) => boolean', received: describeValue(noDecay) });
    for (const [name, parameter, decay] of namedParameters(parameters, noDecay)) {
      const slot: Slot = { name, parameter, decay, step: 0, moments: undefined };
      this.#slots.push(slot);
      this.#byVariable.set(parameter.name, slot);
    }
  }

  /** The learning rate of the next step: a finite number ≥ 0 (set it before each step for a schedule). */
  get learningRate(): number {
    return this.#learningRate;
  }

  set learningRate(value: number) {
    this.#learningRate = checkNonNegative(value, 'AdamW', 'learningRate');
  }

  /** The parameter names in two groups, as `torch.optim.AdamW` param groups: with and without weight decay. */
  parameterGroups(): Array<{ readonly names: string[]; readonly weightDecay: number }> {
    this.#assertLive('AdamW.parameterGroups');
    return [
      { names: this.#slots.filter((s) => s.decay).map((s) => s.name), weightDecay: this.weightDecay },
      { names: this.#slots.filter((s) => !s.decay).map((s) => s.name), weightDecay: 0 },
    ];
  }

  /** One step on the loss `f` returns: `returnCost` (a boolean) keeps the loss (dispose it), `varList` (default: this optimiser's parameters) the variables it updates. */
  override minimize(f: () => Scalar, returnCost = false, varList?: Variable[]): Scalar | null {
    const caller = 'AdamW.minimize';
    this.#assertLive(caller);
    if (typeof f !== 'function') throw new InvalidArgumentError({ caller, argument: 'f', expected: 'a function returning the loss (a scalar tensor)', received: describeValue(f) });
    if (typeof returnCost !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'returnCost', expected: 'a boolean', received: describeValue(returnCost) });
    if (varList !== undefined && (!Array.isArray(varList) || !Array.from(varList as unknown[]).every((v) => v instanceof Variable))) throw new InvalidArgumentError({ caller, argument: 'varList', expected: 'a list of Variables or undefined (default: the optimiser\'s parameters)', received: describeValue(varList) });
    return super.minimize(f, returnCost, varList);
  }

  /** `optimizer.minimize(f)` updates this optimiser's parameters (tfjs' default would be every trainable variable). */
  override computeGradients(f: () => Scalar, varList?: Variable[]): { value: Scalar; grads: NamedTensorMap } {
    this.#assertLive('AdamW.minimize');
    return super.computeGradients(f, varList ?? this.#slots.map((s) => s.parameter));
  }

  /** One AdamW step. `gradients` are keyed by the variables' tfjs names (`variableGrads`' keys); they are not disposed. */
  applyGradients(gradients: NamedTensorMap | NamedTensor[]): void {
    const caller = 'AdamW.applyGradients';
    this.#assertLive(caller);
    const entries: Array<[string, Tensor | undefined]> = Array.isArray(gradients) ? gradients.map((g) => [g?.name, g?.tensor]) : Object.entries(checkObject(gradients, { caller, argument: 'gradients' }));
    const updates: Array<[Slot, Tensor]> = [];
    for (const [key, gradient] of entries) {
      const slot = this.#byVariable.get(key);
      if (slot === undefined) {
        throw new InvalidArgumentError({ caller, argument: 'gradients', expected: "gradients of this optimiser's parameters, keyed by variable name (as variableGrads returns them)", received: `the unknown key ${describeValue(key)}`, hint: `Its parameters are ${summarizeList(this.#slots.map((s) => `${s.name} (variable ${s.parameter.name})`), 5)}.` });
      }
      if (gradient === undefined || gradient === null) continue; // no gradient: left alone, as PyTorch
      checkTensor(gradient, { caller, argument: `gradients[${slot.name}]`, dtype: 'float32' });
      if (!sameShape(gradient.shape, slot.parameter.shape)) {
        throw new InvalidArgumentError({ caller, argument: `gradients[${slot.name}]`, expected: `a float32 tensor of the parameter's shape ${formatShape(slot.parameter.shape)}`, received: formatShape(gradient.shape) });
      }
      updates.push([slot, gradient]);
    }
    const lr = this.#learningRate;
    for (const [slot, gradient] of updates) {
      slot.moments ??= tidy(() => ({ expAvg: variable(zerosLike(slot.parameter), false), expAvgSq: variable(zerosLike(slot.parameter), false) })); // tidy disposes the zeros the variables were made from
      const { expAvg, expAvgSq } = slot.moments;
      slot.step += 1;
      const biasCorrection1 = 1 - this.beta1 ** slot.step;
      const biasCorrection2 = 1 - this.beta2 ** slot.step;
      tidy(() => {
        const decayed = slot.decay && this.weightDecay !== 0 ? mul(slot.parameter, 1 - lr * this.weightDecay) : slot.parameter;
        const m = add(mul(expAvg, this.beta1), mul(gradient, 1 - this.beta1));
        const v = add(mul(expAvgSq, this.beta2), mul(square(gradient), 1 - this.beta2));
        const denominator = add(div(sqrt(v), Math.sqrt(biasCorrection2)), this.epsilon);
        expAvg.assign(m);
        expAvgSq.assign(v);
        slot.parameter.assign(sub(decayed, mul(div(m, denominator), lr / biasCorrection1)));
      });
    }
    this.incrementIterations();
  }

  /** The step count, learning rate and moments as plain data (read back from the backend). */
  async exportState(): Promise<AdamWState> {
    this.#assertLive('AdamW.exportState');
    const parameters: Record<string, AdamWParameterState> = {};
    for (const slot of this.#slots) {
      if (slot.moments === undefined) continue;
      const [expAvg, expAvgSq] = await Promise.all([slot.moments.expAvg.data<'float32'>(), slot.moments.expAvgSq.data<'float32'>()]);
      parameters[slot.name] = { step: slot.step, expAvg: { shape: slot.parameter.shape, values: expAvg }, expAvgSq: { shape: slot.parameter.shape, values: expAvgSq } };
    }
    return { step: this.iterations, learningRate: this.#learningRate, parameters };
  }

  /** Replaces the step count, learning rate and moments with `state` (from {@link exportState}); every name and shape is checked first. */
  importState(state: AdamWState): void {
    const caller = 'AdamW.importState';
    this.#assertLive(caller);
    checkObject(state, { caller, argument: 'state', expected: 'an AdamWState { step, learningRate, parameters }' });
    checkOptionKeys(state, ['step', 'learningRate', 'parameters'], caller, 'state');
    if (!Number.isInteger(state.step) || state.step < 0) throw new InvalidArgumentError({ caller, argument: 'state.step', expected: 'an integer ≥ 0', received: describeValue(state.step) });
    const learningRate = checkNonNegative(state.learningRate, caller, 'state.learningRate');
    const given = Object.entries(checkObject(state.parameters, { caller, argument: 'state.parameters', expected: 'an object of moments by parameter name' }));
    const bySlotName = new Map(this.#slots.map((s) => [s.name, s]));
    for (const [name, entry] of given) {
      const slot = bySlotName.get(name);
      if (slot === undefined) throw new InvalidArgumentError({ caller, argument: 'state.parameters', expected: `moments of this optimiser's parameters (${summarizeList(this.#slots.map((s) => s.name), 5)})`, received: `the unknown name '${name}'` });
      const size = slot.parameter.size;
      const valid = (data: TensorData | undefined): boolean => data?.values instanceof Float32Array && data.values.length === size && sameShape(data.shape, slot.parameter.shape);
      if (!Number.isInteger(entry?.step) || entry.step < 1 || !valid(entry.expAvg) || !valid(entry.expAvgSq)) {
        throw new InvalidArgumentError({ caller, argument: `state.parameters['${name}']`, expected: `{ step ≥ 1, expAvg, expAvgSq } with Float32Array values of shape ${formatShape(slot.parameter.shape)}`, received: describeValue(entry) });
      }
    }
    for (const slot of this.#slots) this.#disposeMoments(slot);
    for (const [name, entry] of given) {
      const slot = bySlotName.get(name)!;
      slot.step = entry.step;
      slot.moments = tidy(() => ({ expAvg: variable(tensor(entry.expAvg.values, [...slot.parameter.shape]), false), expAvgSq: variable(tensor(entry.expAvgSq.values, [...slot.parameter.shape]), false) })); // tidy disposes the tensors the variables were made from
    }
    this.iterations_ = state.step;
    this.#learningRate = learningRate;
  }

  override getConfig(): { learningRate: number; beta1: number; beta2: number; epsilon: number; weightDecay: number } {
    return { learningRate: this.#learningRate, beta1: this.beta1, beta2: this.beta2, epsilon: this.epsilon, weightDecay: this.weightDecay };
  }

  /** Frees the moments (not the parameters). A second call, or any later use, throws `UseAfterDisposeError`. */
  override dispose(): void {
    this.#assertLive('AdamW.dispose');
    for (const slot of this.#slots) this.#disposeMoments(slot);
    this.#disposed = true;
  }

  #disposeMoments(slot: Slot): void {
    if (slot.moments !== undefined) dispose([slot.moments.expAvg, slot.moments.expAvgSq]);
    slot.moments = undefined;
    slot.step = 0;
  }

  #assertLive(caller: string): void {
    if (this.#disposed) throw new UseAfterDisposeError(caller);
  }
}

function checkNonNegative(value: unknown, caller: string, argument: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InvalidArgumentError({ caller, argument, expected: 'a finite number ≥ 0', received: describeValue(value) });
  return value;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((d, i) => d === b[i]);
}

/** `[name, variable, decays]` for every parameter: a Module's trainable ones (LayerNorm parameters never decay), or the given pairs. */
function namedParameters(source: Module | Iterable<readonly [string, Variable]>, noDecay: (name: string) => boolean): Array<[string, Variable, boolean]> {
  const caller = 'AdamW';
  let pairs: Array<readonly [string, Variable]>;
  const layerNorms = new Set<string>();
  if (source instanceof Module) {
    pairs = source.namedParameters().filter(([, p]) => p.trainable);
    for (const [path, module] of source.namedModules()) {
      if (module instanceof LayerNorm) for (const [name] of module.namedParameters()) layerNorms.add(path === '' ? name : `${path}.${name}`);
    }
  } else if (source !== null && typeof source === 'object' && Symbol.iterator in source) {
    pairs = [...source];
  } else {
    throw new InvalidArgumentError({ caller, argument: 'parameters', expected: 'a Module or [name, Variable] pairs (module.namedParameters())', received: describeValue(source) });
  }
  const seen = new Set<string>();
  const out: Array<[string, Variable, boolean]> = [];
  for (const [i, pair] of pairs.entries()) {
    const [name, parameter] = Array.isArray(pair) ? pair : [];
    if (typeof name !== 'string' || !(parameter !== undefined && isVariable(parameter)) || parameter.isDisposed) {
      throw new InvalidArgumentError({ caller, argument: `parameters[${i}]`, expected: 'a [name, Variable] pair with a live float32 variable', received: describeValue(pair) });
    }
    if (seen.has(name)) throw new InvalidArgumentError({ caller, argument: `parameters[${i}]`, expected: 'a name not used by another parameter', received: `'${name}' again` });
    seen.add(name);
    out.push([name, parameter, !noDecay(name) && !layerNorms.has(name)]);
  }
  if (out.length === 0) throw new InvalidArgumentError({ caller, argument: 'parameters', expected: 'at least one parameter (as torch.optim: an empty parameter list is an error)', received: 'none' });
  return out;
}

function isVariable(value: unknown): value is Variable {
  return typeof value === 'object' && value !== null && typeof (value as Variable).assign === 'function' && (value as Variable).dtype === 'float32';
}
