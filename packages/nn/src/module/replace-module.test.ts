import { memory, mul, ones, randomNormal, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { Dropout } from '../layers/dropout.js';
import { LayerNorm } from '../layers/layer-norm.js';
import { Linear } from '../layers/linear.js';
import { Module } from './module.js';
import { ModuleList } from './module-list.js';

beforeAll(() => useBackend('cpu'));

/** A parent holding its children in fields, as the BERT modules do (`this.query = this.registerModule('query', ...)`). */
class Attention extends Module {
  readonly query: Linear;
  readonly value: Linear;
  readonly alias: Linear; // a second field holding the same child
  constructor() {
    super();
    this.registerParameter('scale', ones([4]));
    [this.query, this.value] = this.guard(() => [this.registerModule('query', new Linear(4, 4, { seed: 1 })), this.registerModule('value', new Linear(4, 4, { seed: 2 }))] as const);
    this.alias = this.query;
  }
  forward(x: Tensor): Tensor {
    return tidy(() => this.value.forward(this.query.forward(x)));
  }
}

/** `children({...})` of @attnkit/models: a group whose fields are assigned from a record. */
class Group extends Module {
  constructor(named: Record<string, Module>) {
    super();
    this.guard(() => Object.entries(named).forEach(([name, child]) => Object.assign(this, { [name]: this.registerModule(name, child) })));
  }
}

/** A Linear-shaped stand-in: `[..., in] → [..., out]` through its own parameters. */
class Doubled extends Linear {
  override forward(x: Tensor): Tensor {
    return tidy(() => mul(super.forward(x), 2));
  }
}

const keys = (m: Module) => m.namedParameters().map(([key]) => key);

describe('Module.replaceModule', () => {
  it('swaps a child held in fields: the registry, every field that held it, same keys in the same order; returns the old child unowned', async () => {
    const attention = new Attention();
    const before = keys(attention);
    const old = attention.query;
    const replacement = new Doubled(4, 4, { seed: 3 });
    expect(attention.replaceModule('query', replacement)).toBe(old);
    expect(attention.query).toBe(replacement);
    expect(attention.alias).toBe(replacement);
    expect(attention.value).not.toBe(replacement);
    expect(keys(attention)).toEqual(before); // ['scale', 'query.weight', 'query.bias', 'value.weight', 'value.bias']
    expect(attention.namedParameters().find(([key]) => key === 'query.weight')![1]).toBe(replacement.weight);
    expect(attention.namedModules().find(([path]) => path === 'query')![1]).toBe(replacement);
    const x = randomNormal([2, 4], 0, 1, 'float32', 4);
    const [got, want] = [attention.forward(x), tidy(() => attention.value.forward(replacement.forward(x)))];
    expect(Array.from(await got.data())).toEqual(Array.from(await want.data())); // forward goes through the new child
    [x, got, want].forEach((t) => t.dispose());
    attention.dispose();
    expect(replacement.isDisposed).toBe(true);
    expect(old.isDisposed).toBe(false); // the caller's to dispose
    old.dispose();
  });

  it('updates a children()-style group, and loadStateDict reaches the new child', async () => {
    const group = new Group({ dense: new Linear(3, 2, { seed: 1 }), norm: new LayerNorm(2) });
    const replacement = new Linear(3, 2, { seed: 9 });
    group.replaceModule('dense', replacement).dispose();
    expect((group as unknown as { dense: Linear }).dense).toBe(replacement);
    expect(keys(group)).toEqual(['dense.weight', 'dense.bias', 'norm.weight', 'norm.bias']);
    const f = (...values: number[]) => Float32Array.from(values);
    group.loadStateDict({ 'dense.weight': { shape: [2, 3], values: f(1, 2, 3, 4, 5, 6) }, 'dense.bias': { shape: [2], values: f(0, 0) }, 'norm.weight': { shape: [2], values: f(1, 1) }, 'norm.bias': { shape: [2], values: f(0, 0) } });
    expect(Array.from(await replacement.weight.data())).toEqual([1, 2, 3, 4, 5, 6]);
    group.dispose();
  });

  it("updates a ModuleList's entry: at(), iteration and the '0', '1' keys", () => {
    const [a, b] = [new Linear(2, 2), new Linear(2, 2)];
    const list = new ModuleList([a, b]);
    const c = new Linear(2, 2);
    expect(list.replaceModule('1', c)).toBe(b);
    expect(list.at(1)).toBe(c);
    expect(list.at(-1)).toBe(c);
    expect([...list]).toEqual([a, c]);
    expect(list.namedParameters().map(([key, p]) => [key, p])).toEqual([['0.weight', a.weight], ['0.bias', a.bias], ['1.weight', c.weight], ['1.bias', c.bias]]);
    list.dispose();
    expect(c.isDisposed && !b.isDisposed).toBe(true);
    b.dispose();
  });

  it("gives the new child's whole subtree the old child's training mode", () => {
    const parent = new Group({ block: new Group({ drop: new Dropout(0.1) }) });
    parent.train();
    const replacement = new Group({ drop: new Dropout(0.1), inner: new Group({ drop: new Dropout(0.2) }) });
    expect(replacement.namedModules().every(([, m]) => !m.training)).toBe(true);
    parent.replaceModule('block', replacement).dispose();
    expect(replacement.namedModules().map(([, m]) => m.training)).toEqual([true, true, true, true]);
    parent.eval();
    const another = new Group({ drop: new Dropout(0.1) }).train();
    parent.replaceModule('block', another).dispose();
    expect(another.namedModules().map(([, m]) => m.training)).toEqual([false, false]);
    parent.dispose();
  });

  it('refuses a missing name, a non-module, a disposed module, the same child and a cycle, changing nothing and taking nothing over', () => {
    const attention = new Attention();
    const query = attention.query;
    const spare = new Linear(4, 4);
    const lonely = new Linear(2, 2);
    const tensorsBefore = memory().numTensors;
    const cases: Array<[() => unknown, string]> = [
      [() => attention.replaceModule('key', spare), `Attention.replaceModule: 'name' must be the name of a child of this Attention (query, value); received "key".`],
      [() => attention.replaceModule('query.weight', spare), `Attention.replaceModule: 'name' must be the name of a child of this Attention (query, value); received "query.weight".`],
      [() => attention.replaceModule(3 as never, spare), `Attention.replaceModule: 'name' must be the name of a child of this Attention (query, value); received number 3.`],
      [() => lonely.replaceModule('weight', spare), `Linear.replaceModule: 'name' must be the name of a child of this Linear (it has none); received "weight".`],
      [() => attention.replaceModule('query', { forward: () => undefined } as never), `Attention.replaceModule: 'module' must be a Module; received Object.`],
      [() => attention.replaceModule('query', attention.query), `Attention.replaceModule: 'module' must be a module other than the current child 'query'; received the same Linear.`],
    ];
    const disposed = new Linear(4, 4);
    disposed.dispose();
    cases.push([() => attention.replaceModule('query', disposed), `Attention.replaceModule: 'module' must be a live Module; received a disposed Linear.`]);
    const outer = new Group({ attention });
    cases.push([() => attention.replaceModule('query', outer), `Attention.replaceModule: 'module' must be a module that does not contain this one (a tree, not a cycle); received a Group containing this Attention.`]);
    for (const [call, message] of cases) {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    }
    expect(attention.query).toBe(query);
    expect(attention.namedModules().map(([, m]) => m)).not.toContain(spare);
    expect(spare.isDisposed || query.isDisposed).toBe(false);
    expect(memory().numTensors).toBe(tensorsBefore); // nothing made, nothing freed (the Linear made and disposed above aside)
    [outer, spare, lonely].forEach((m) => m.dispose());
    const frozen = Object.freeze(new Group({ only: new Linear(1, 1) }));
    const replacement = new Linear(1, 1);
    expect(thrown(() => frozen.replaceModule('only', replacement)).message).toBe("Group.replaceModule: 'this' must be a module whose fields holding 'only' can be reassigned; received the frozen field only.");
    expect(frozen.namedModules()[1]![1]).not.toBe(replacement);
    frozen.dispose();
    expect(thrown(() => frozen.replaceModule('only', replacement))).toBeInstanceOf(UseAfterDisposeError);
    replacement.dispose();
  });
});
