import { Variable, variable, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, UseAfterDisposeError, describeValue, formatShape, summarizeList } from '@attnkit/errors';
import { skipInitialization } from '../layers/init.js';
import { loadStateDict, type LoadStateDictOptions, type LoadStateDictResult, type StateDictSource } from './load-state-dict.js';

/**
 * The base of every layer and model, in the spirit of `torch.nn.Module`: a tree of named child
 * modules and named parameters (`tf.Variable`s). A parameter's dotted path from the root —
 * `encoder.layer.0.attention.self.query.weight` — is its checkpoint key, so saving and loading walk
 * the tree ({@link Module.stateDict}, {@link Module.loadStateDict}) instead of listing weights by hand.
 *
 * Subclasses register what they own in their constructor (`registerParameter`, `registerModule`)
 * and do the math in `forward`. Modules start in **eval mode** (dropout off; PyTorch starts in
 * train mode): call `train()` before fitting. `dispose()` frees every parameter of the tree once;
 * any later use throws {@link UseAfterDisposeError}.
 *
 * @example
 * class TwoLayer extends Module {
 *   readonly first = this.registerModule('first', new Linear(8, 16));
 *   readonly second = this.registerModule('second', new Linear(16, 2));
 *   forward(x: Tensor): Tensor { return tidy(() => this.second.forward(relu(this.first.forward(x)))); }
 * }
 * new TwoLayer().namedParameters().map(([name]) => name); // ['first.weight', 'first.bias', 'second.weight', 'second.bias']
 */
export abstract class Module {
  readonly #parameters = new Map<string, Variable>();
  readonly #children = new Map<string, Module>();
  #training = false;
  #disposed = false;

  /** The class name, used in error messages (`Linear.forward: ...`). */
  get className(): string {
    return this.constructor.name;
  }

  /** True between `train()` and `eval()`: dropout is active. */
  get training(): boolean {
    return this.#training;
  }

  /** True once `dispose()` has freed the parameters. */
  get isDisposed(): boolean {
    return this.#disposed;
  }

  /**
   * Adds a parameter: a `tf.Variable` over `initial` (the module takes ownership of `initial`: it
   * is disposed, or adopted as is when it already is a `Variable`). `name` is usually one path
   * segment (`weight`); a dotted name (`out_proj.weight`) is allowed for flat modules that mirror a
   * checkpoint without child modules. Names are unique among this module's parameters and children.
   */
  protected registerParameter(name: string, initial: Tensor, options: { readonly trainable?: boolean } = {}): Variable {
    try {
      this.#checkName(name, 'registerParameter');
    } catch (error) {
      initial.dispose(); // ownership was handed over
      this.#disposeTree(); // and what this module holds: a failed constructor leaks nothing
      throw error;
    }
    let parameter: Variable;
    if (initial instanceof Variable) {
      parameter = initial;
    } else {
      parameter = variable(initial, options.trainable !== false); // tfjs names it uniquely per engine
      initial.dispose();
    }
    this.#parameters.set(name, parameter);
    return parameter;
  }

  /**
   * Adds a child module under `name` (one path segment); its parameters appear as
   * `name.<their path>`. The module takes ownership (a rejected child is disposed). Returns it.
   */
  protected registerModule<M extends Module>(name: string, module: M): M {
    const caller = `${this.className}.registerModule`;
    try {
      if (!(module instanceof Module)) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a Module', received: describeValue(module) });
      if (module.#disposed) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a live Module', received: `a disposed ${module.className}` });
      if (module.namedModules().some(([, m]) => m === this)) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a module that does not contain this one (a tree, not a cycle)', received: `a ${module.className} containing this ${this.className}` });
      this.#checkName(name, 'registerModule');
      if (name.includes('.')) throw new InvalidArgumentError({ caller, argument: 'name', expected: 'one path segment (no dots)', received: JSON.stringify(name) });
    } catch (error) {
      if (module instanceof Module && !module.#disposed && (module as Module) !== this && !module.namedModules().some(([, m]) => m === this)) module.#disposeTree(); // ownership was handed over
      this.#disposeTree(); // and what this module holds: a failed constructor leaks nothing
      throw error;
    }
    module.#training = this.#training;
    this.#children.set(name, module);
    return module;
  }

  /**
   * Swaps the child registered as `name` for `module` (a quantized layer for a float one, an
   * adapter for a projection) and returns the old child. Everything that pointed at the old child
   * from this module points at the new one: the registry (same name, same place in
   * `namedParameters()` order), every own field of this module that held the old instance
   * (`this.query`, the fields of `children({...})` groups), and a `ModuleList`'s entry. The new
   * child (its whole subtree) takes the old child's training mode, and this module takes ownership
   * of it. **The old child is no longer owned**: disposing this module leaves it alone, so the caller
   * disposes it (or keeps using it elsewhere).
   *
   * Throws `InvalidArgumentError`, changing nothing (`module` is not taken over), when this module
   * has no child `name`, when `module` is not a live Module, is the current child itself, or
   * contains this module (a cycle).
   *
   * @example
   * const old = layer.attention.self.replaceModule('query', Int8Linear.fromLinear(layer.attention.self.query));
   * old.dispose(); // layer.attention.self.query is the Int8Linear now; the parameter keys are unchanged
   */
  replaceModule(name: string, module: Module): Module {
    Module.#receiver(this, 'replaceModule');
    const caller = `${this.className}.replaceModule`;
    this.assertLive(caller);
    const old = typeof name === 'string' ? this.#children.get(name) : undefined;
    if (old === undefined) {
      const names = [...this.#children.keys()];
      throw new InvalidArgumentError({ caller, argument: 'name', expected: `the name of a child of this ${this.className} (${names.length === 0 ? 'it has none' : names.join(', ')})`, received: typeof name === 'string' ? JSON.stringify(name) : describeValue(name) });
    }
    if (!(module instanceof Module)) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a Module', received: describeValue(module) });
    if (module.#disposed) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a live Module', received: `a disposed ${module.className}` });
    if (module === old) throw new InvalidArgumentError({ caller, argument: 'module', expected: `a module other than the current child '${name}'`, received: `the same ${module.className}` });
    if (module.namedModules().some(([, m]) => m === this)) throw new InvalidArgumentError({ caller, argument: 'module', expected: 'a module that does not contain this one (a tree, not a cycle)', received: `a ${module.className} containing this ${this.className}` });
    const fields = Reflect.ownKeys(this).filter((key) => Object.getOwnPropertyDescriptor(this, key)?.value === old);
    const fixed = fields.filter((key) => { const d = Object.getOwnPropertyDescriptor(this, key)!; return d.writable !== true && d.configurable !== true; });
    if (fixed.length > 0) throw new InvalidArgumentError({ caller, argument: 'this', expected: `a module whose fields holding '${name}' can be reassigned`, received: `the frozen field${fixed.length > 1 ? 's' : ''} ${fixed.map(String).join(', ')}` });
    for (const key of fields) Object.defineProperty(this, key, { ...Object.getOwnPropertyDescriptor(this, key), value: module });
    for (const [, m] of module.namedModules()) m.#training = old.#training;
    this.#children.set(name, module); // same key: same place in the iteration order
    return old;
  }

  /**
   * Runs `build` (a constructor's body); if it throws, every parameter registered so far is
   * disposed before the error propagates, so a failed construction leaks no tensor.
   */
  protected guard<T>(build: () => T): T {
    try {
      return build();
    } catch (error) {
      this.#disposeTree();
      throw error;
    }
  }

  /**
   * The body of a constructor that takes an optional checkpoint (`new AdditiveScorer(config,
   * checkpoint)`): runs `build`, which registers the parameters — without drawing initial values
   * when a checkpoint is given ({@link skipInitialization}) — then loads the checkpoint strictly. Every
   * unknown, missing and mis-shaped key comes in one `StateDictError` (a key the config turns off,
   * such as a bias with `bias: false`, is unknown) whose message names the keys this config gives
   * the module. If anything throws, every parameter registered so far is disposed, as in `guard`.
   *
   * @example
   * constructor(config: ProjectionConfig, checkpoint?: StateDictSource) {
   *   super();
   *   this.linear = this.buildFrom(checkpoint, () => this.registerModule('linear', new Linear(config.inputDim, config.outputDim)));
   * }
   */
  protected buildFrom<T>(checkpoint: StateDictSource | undefined, build: () => T): T {
    return this.guard(() => {
      if (checkpoint === undefined) return build();
      const built = skipInitialization(build); // zeros: the values come next
      const own = this.namedParameters();
      loadStateDict(this.className, own, checkpoint, {}, `For its config, this ${this.className} has ${summarizeList(own.map(([key, p]) => `${key} ${formatShape(p.shape)}`))}.`);
      return built;
    });
  }

  /** Every parameter of the tree with its dotted checkpoint key, in registration order. */
  namedParameters(): Array<[string, Variable]> {
    Module.#receiver(this, 'namedParameters');
    this.assertLive(`${this.className}.namedParameters`);
    const out: Array<[string, Variable]> = [...this.#parameters];
    for (const [childName, child] of this.#children) {
      for (const [name, parameter] of child.namedParameters()) out.push([`${childName}.${name}`, parameter]);
    }
    return out;
  }

  /** The parameters of the tree (for an optimiser: `trainableParameters()`). */
  parameters(): Variable[] {
    Module.#receiver(this, 'parameters');
    return this.namedParameters().map(([, parameter]) => parameter);
  }

  /** The parameters with `trainable` set, e.g. for `optimizer.minimize(loss, false, model.trainableParameters())`. */
  trainableParameters(): Variable[] {
    Module.#receiver(this, 'trainableParameters');
    return this.parameters().filter((parameter) => parameter.trainable);
  }

  /** Every module of the tree with its dotted path (the root is `''`). */
  namedModules(): Array<[string, Module]> {
    Module.#receiver(this, 'namedModules');
    this.assertLive(`${this.className}.namedModules`);
    const out: Array<[string, Module]> = [['', this]];
    for (const [childName, child] of this.#children) {
      for (const [name, module] of child.namedModules()) out.push([name === '' ? childName : `${childName}.${name}`, module]);
    }
    return out;
  }

  /** The number of scalar parameters in the tree. */
  numParameters(): number {
    Module.#receiver(this, 'numParameters');
    return this.parameters().reduce((sum, parameter) => sum + parameter.size, 0);
  }

  /**
   * The parameters by checkpoint key. The values are the live variables, not copies (as
   * PyTorch's `state_dict()` shares storage): do not dispose them; `clone` what must outlive the module.
   */
  stateDict(): Map<string, Tensor> {
    Module.#receiver(this, 'stateDict');
    return new Map(this.namedParameters());
  }

  /**
   * Copies `stateDict` into the parameters, as PyTorch's `load_state_dict`: with `strict` (the
   * default) every key must match; a shape or dtype mismatch is always an error. All problems are
   * reported at once in one `StateDictError`, and nothing is assigned unless everything fits.
   */
  loadStateDict(stateDict: StateDictSource, options: LoadStateDictOptions = {}): LoadStateDictResult {
    Module.#receiver(this, 'loadStateDict');
    const caller = `${this.className}.loadStateDict`;
    this.assertLive(caller);
    return loadStateDict(caller, this.namedParameters(), stateDict, options);
  }

  /** Sets training mode on the whole tree (dropout active). Returns `this`. */
  train(mode = true): this {
    Module.#receiver(this, 'train');
    this.assertLive(`${this.className}.train`);
    if (typeof mode !== 'boolean') throw new InvalidArgumentError({ caller: `${this.className}.train`, argument: 'mode', expected: 'a boolean', received: describeValue(mode) });
    for (const [, module] of this.namedModules()) module.#training = mode;
    return this;
  }

  /** Sets evaluation mode on the whole tree (dropout off). Returns `this`. */
  eval(): this {
    Module.#receiver(this, 'eval');
    return this.train(false);
  }

  /** Frees every parameter of the tree. A second call, or any later use, throws `UseAfterDisposeError`. */
  dispose(): void {
    Module.#receiver(this, 'dispose');
    this.assertLive(`${this.className}.dispose`);
    this.#disposeTree();
  }

  /** Throws `UseAfterDisposeError` naming `caller` if the module was disposed. */
  protected assertLive(caller: string): void {
    if (this.#disposed) throw new UseAfterDisposeError(caller);
  }

  /**
   * Throws `InvalidArgumentError` when a method runs on something that is not a Module: a method taken
   * off its module (`const { stateDict } = model; stateDict()`) has no module to read.
   */
  static #receiver(self: unknown, method: string): void {
    if (typeof self !== 'object' || self === null || !(#disposed in self)) {
      throw new InvalidArgumentError({ caller: `Module.${method}`, argument: 'this', expected: 'a Module', received: describeValue(self), hint: `Call it on the module (model.${method}(...)); a method taken off its module loses it.` });
    }
  }

  #disposeTree(): void {
    for (const child of this.#children.values()) if (!child.#disposed) child.#disposeTree();
    for (const parameter of this.#parameters.values()) if (!parameter.isDisposed) parameter.dispose();
    this.#disposed = true;
  }

  #checkName(name: string, method: string): void {
    const caller = `${this.className}.${method}`;
    if (typeof name !== 'string' || name.split('.').some((segment) => segment === '')) {
      throw new InvalidArgumentError({ caller, argument: 'name', expected: 'a non-empty name without empty path segments', received: JSON.stringify(name) });
    }
    const first = (key: string): string => key.split('.')[0] as string;
    const taken = [...this.#parameters.keys(), ...this.#children.keys()];
    const clash = taken.includes(name) || this.#children.has(first(name)) || [...this.#parameters.keys()].some((key) => first(key) === name);
    if (clash) {
      throw new InvalidArgumentError({ caller, argument: 'name', expected: 'a name not yet used in this module', received: JSON.stringify(name) });
    }
  }
}
