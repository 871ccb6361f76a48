import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { Module } from './module.js';

/**
 * `nn.ModuleList`: modules held in order under the names `0`, `1`, ..., so their parameters are
 * `0.weight`, `1.weight`, ... below the list's own name (`layers.0.self_attn.in_proj_weight`). The
 * list owns them: disposing it disposes them.
 *
 * @example
 * const layers = new ModuleList([new Linear(4, 4), new Linear(4, 4)]);
 * layers.at(1).forward(x);
 */
export class ModuleList<M extends Module = Module> extends Module {
  readonly #items: M[];

  constructor(modules: readonly M[]) {
    super();
    if (!Array.isArray(modules)) throw new InvalidArgumentError({ caller: 'ModuleList', argument: 'modules', expected: 'a list of Modules', received: describeValue(modules) });
    this.#items = this.guard(() => modules.map((module, i) => this.registerModule(String(i), module)));
  }

  get length(): number {
    return this.#items.length;
  }

  /** The module at `index` (negative counts from the end); an index out of range throws. */
  at(index: number): M {
    this.assertLive('ModuleList.at');
    const item = Number.isInteger(index) ? this.#items.at(index) : undefined; // a Symbol or bigint index must not reach Array.prototype.at (a TypeError)
    if (item === undefined) {
      throw new InvalidArgumentError({ caller: 'ModuleList.at', argument: 'index', expected: `an integer from ${-this.#items.length} to ${this.#items.length - 1}`, received: typeof index === 'number' ? String(index) : describeValue(index) });
    }
    return item;
  }

  /**
   * `Module.replaceModule`, also updating the list's entry: `list.at(i)` and iteration give the new
   * module. `name` is the index as a string (`'0'`, `'1'`, ...). Returns the old module, which the
   * caller disposes. The list's element type is not checked: a `ModuleList<Linear>` may then hold
   * an `Int8Linear` (same `forward` contract).
   */
  override replaceModule(name: string, module: Module): Module {
    const old = super.replaceModule(name, module);
    this.#items[Number(name)] = module as M;
    return old;
  }

  [Symbol.iterator](): Iterator<M> {
    this.assertLive('ModuleList[Symbol.iterator]');
    return this.#items[Symbol.iterator]();
  }
}
