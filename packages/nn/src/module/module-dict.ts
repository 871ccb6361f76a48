import { describeValue, InvalidArgumentError, isTensorLike } from '@attnkit/errors';
import { Module } from './module.js';

/**
 * `nn.ModuleDict`: modules held under names, so their parameters are `<name>.weight`, ... below the
 * dict's own name (`heads.sentiment.weight`). Keys are one path segment each (no dots), kept in the
 * order given (a `Map`'s, or a record's own-key order — where JavaScript puts integer-like keys
 * first). The dict owns its modules: disposing it disposes them, and a construction that fails
 * disposes every module it was given.
 *
 * `modules`: a record or `Map` of name → `Module`.
 *
 * @example
 * const heads = new ModuleDict({ sentiment: new Linear(64, 2), topic: new Linear(64, 10) });
 * heads.get('topic').forward(pooled); // [B, 64] -> [B, 10]
 * heads.namedParameters().map(([key]) => key); // ['sentiment.weight', 'sentiment.bias', 'topic.weight', 'topic.bias']
 */
export class ModuleDict<C extends Record<string, Module> = Record<string, Module>> extends Module {
  readonly #items = new Map<string, Module>();

  constructor(modules: C | ReadonlyMap<keyof C & string, C[keyof C]>) {
    super();
    const caller = 'ModuleDict';
    if (typeof modules !== 'object' || modules === null || Array.isArray(modules) || isTensorLike(modules)) {
      throw new InvalidArgumentError({ caller, argument: 'modules', expected: 'a record or Map of name → Module', received: describeValue(modules) });
    }
    const entries: Array<[string, unknown]> = modules instanceof Map ? [...modules] : Object.entries(modules);
    try {
      this.guard(() => entries.forEach(([name, module]) => {
        if (!(module instanceof Module)) throw new InvalidArgumentError({ caller, argument: `modules[${JSON.stringify(name)}]`, expected: 'a Module', received: describeValue(module) });
        this.#items.set(name, this.registerModule(name, module));
      }));
    } catch (error) {
      for (const [, module] of entries) if (module instanceof Module && !module.isDisposed) module.dispose(); // ownership was handed over
      throw error;
    }
  }

  /** How many modules it holds. */
  get size(): number {
    this.assertLive('ModuleDict.size');
    return this.#items.size;
  }

  /** The module under `key`; a key it does not hold throws, naming the keys it does. */
  get<K extends keyof C & string>(key: K): C[K] {
    this.assertLive('ModuleDict.get');
    const module = typeof key === 'string' ? this.#items.get(key) : undefined;
    if (module === undefined) {
      const keys = [...this.#items.keys()];
      throw new InvalidArgumentError({ caller: 'ModuleDict.get', argument: 'key', expected: `one of its keys (${keys.length === 0 ? 'it has none' : keys.join(', ')})`, received: typeof key === 'string' ? JSON.stringify(key) : describeValue(key) });
    }
    return module as C[K];
  }

  /** True when it holds a module under `key`. */
  has(key: string): key is keyof C & string {
    this.assertLive('ModuleDict.has');
    return this.#items.has(key);
  }

  /** The keys, in order. */
  keys(): Array<keyof C & string> {
    this.assertLive('ModuleDict.keys');
    return [...this.#items.keys()];
  }

  /** The modules, in key order. */
  values(): Array<C[keyof C]> {
    this.assertLive('ModuleDict.values');
    return [...this.#items.values()] as Array<C[keyof C]>;
  }

  /** `[key, module]` pairs, in order (also what iterating the dict gives). */
  entries(): Array<[keyof C & string, C[keyof C]]> {
    this.assertLive('ModuleDict.entries');
    return [...this.#items] as Array<[keyof C & string, C[keyof C]]>;
  }

  /**
   * `Module.replaceModule`, also updating the dict's entry: `get(name)` and iteration give the new
   * module. Returns the old module, which the caller disposes. The new module's type is not checked
   * against `C` (an `Int8Linear` for a `Linear`: the same `forward` contract).
   */
  override replaceModule(name: string, module: Module): Module {
    const old = super.replaceModule(name, module);
    this.#items.set(name, module); // same key: same place in the iteration order
    return old;
  }

  [Symbol.iterator](): Iterator<[keyof C & string, C[keyof C]]> {
    return this.entries()[Symbol.iterator]();
  }
}
