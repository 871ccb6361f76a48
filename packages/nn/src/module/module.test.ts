import { memory, ones, tensor, tidy, zeros, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Dropout } from '../layers/dropout.js';
import { LayerNorm } from '../layers/layer-norm.js';
import { Linear } from '../layers/linear.js';
import { Module } from './module.js';
import { StateDictError } from './state-dict-error.js';

beforeAll(() => useBackend('cpu'));

class Block extends Module {
  readonly attention: Linear;
  readonly norm: LayerNorm;
  readonly drop: Dropout;
  constructor(width: number) {
    super();
    [this.attention, this.norm, this.drop] = this.guard(() => [
      this.registerModule('attention', new Linear(width, width, { seed: 1 })),
      this.registerModule('norm', new LayerNorm(width)),
      this.registerModule('drop', new Dropout(0.5)),
    ] as const);
  }
}

class Stack extends Module {
  readonly scale: Variable;
  readonly layers: Block[];
  constructor(width: number, depth: number, failAt = -1) {
    super();
    this.scale = this.registerParameter('scale', ones([width]));
    this.layers = this.guard(() =>
      Array.from({ length: depth }, (_, n) => {
        if (n === failAt) throw new Error(`layer ${n} failed`);
        return this.registerModule(`layer_${n}`, new Block(width));
      }),
    );
  }
}

describe('Module', () => {
  it('names every parameter by its dotted path, in registration order, parents first', () => {
    const stack = new Stack(4, 2);
    expect(stack.namedParameters().map(([name, p]) => [name, p.shape])).toEqual([
      ['scale', [4]],
      ['layer_0.attention.weight', [4, 4]], ['layer_0.attention.bias', [4]], ['layer_0.norm.weight', [4]], ['layer_0.norm.bias', [4]],
      ['layer_1.attention.weight', [4, 4]], ['layer_1.attention.bias', [4]], ['layer_1.norm.weight', [4]], ['layer_1.norm.bias', [4]],
    ]);
    expect(stack.namedModules().map(([name]) => name)).toEqual(['', 'layer_0', 'layer_0.attention', 'layer_0.norm', 'layer_0.drop', 'layer_1', 'layer_1.attention', 'layer_1.norm', 'layer_1.drop']);
    expect(stack.numParameters()).toBe(4 + 2 * (16 + 4 + 4 + 4));
    expect(stack.trainableParameters()).toHaveLength(9);
    stack.dispose();
  });

  it('round-trips its state dict into a fresh module, and loading changes the values', async () => {
    const source = new Stack(3, 2);
    const target = new Stack(3, 2);
    source.layers[1]!.norm.weight!.assign(tensor([1, 2, 3]));
    expect(target.loadStateDict(source.stateDict())).toEqual({ missingKeys: [], unexpectedKeys: [] });
    for (const [name, value] of target.stateDict()) expect(Array.from(await value.data()), name).toEqual(Array.from(await source.stateDict().get(name)!.data()));
    expect(Array.from(await target.layers[1]!.norm.weight!.data())).toEqual([1, 2, 3]);
    [source, target].forEach((m) => m.dispose());
  });

  it('reports every missing, unexpected and mis-shaped key in one StateDictError and assigns nothing', async () => {
    const stack = new Stack(2, 1);
    const before = Array.from(await stack.scale.data());
    const state = { scale: tensor([9, 9]), 'layer_0.attention.weight': zeros([3, 2]), 'layer_0.norm.weight': tensor([1, 1]), 'layer_0.norm.gamma': tensor([1, 1]), 'bert.pooler': tensor([1]) };
    const error = thrown(() => stack.loadStateDict(state)) as StateDictError;
    expect(error).toBeInstanceOf(StateDictError);
    expect(error.code).toBe('ATTNKIT_STATE_DICT');
    expect(error.missingKeys).toEqual(['layer_0.attention.bias', 'layer_0.norm.bias']);
    expect(error.unexpectedKeys).toEqual(['layer_0.norm.gamma', 'bert.pooler']);
    expect(error.mismatchedKeys).toEqual([{ key: 'layer_0.attention.weight', expected: '[2, 2] float32', received: '[3, 2] float32' }]);
    expect(error.message).toBe(
      'Stack.loadStateDict: the state dict does not fit the module. 2 missing: layer_0.attention.bias, layer_0.norm.bias. 2 unexpected: layer_0.norm.gamma, bert.pooler. 1 mis-shaped: layer_0.attention.weight (expected [2, 2] float32, received [3, 2] float32).',
    );
    expect(Array.from(await stack.scale.data())).toEqual(before); // scale fitted, but nothing is assigned after a failure
    Object.values(state).forEach((t) => t.dispose());
    stack.dispose();
  });

  it('non-strict loading returns what it left out, but still refuses wrong shapes, dtypes, disposed tensors and non-tensors', () => {
    const norm = new LayerNorm(2);
    const [weight, extra, bool, disposed] = [tensor([2, 2]), tensor([1]), tensor([true, false], undefined, 'bool'), tensor([1, 1])];
    expect(norm.loadStateDict({ weight, extra }, { strict: false })).toEqual({ missingKeys: ['bias'], unexpectedKeys: ['extra'] });
    disposed.dispose();
    const error = thrown(() => norm.loadStateDict({ weight: bool, bias: disposed }, { strict: false })) as StateDictError;
    expect(error.mismatchedKeys).toEqual([
      { key: 'weight', expected: '[2] float32', received: '[2] bool' },
      { key: 'bias', expected: '[2] float32', received: 'a disposed tensor' },
    ]);
    const notTensors = thrown(() => norm.loadStateDict({ weight: [1, 2] as never, bias: { shape: [2], values: [0, 1] } as never })) as StateDictError;
    expect(notTensors.mismatchedKeys.map((m) => m.key)).toEqual(['weight', 'bias']);
    expect(thrown(() => norm.loadStateDict([] as never)).message).toMatch(/^LayerNorm.loadStateDict: 'stateDict' must be a Map or record of tensors by checkpoint key; received/);
    expect(thrown(() => norm.loadStateDict({}, null as never)).message).toMatch(/^LayerNorm.loadStateDict: 'options' must be an object/);
    expect(thrown(() => norm.loadStateDict({ weight }, { strcit: false } as never)).message).toBe("LayerNorm.loadStateDict: 'options' must be an object with only the keys strict; received the unknown key 'strcit'. Did you mean 'strict'?");
    [weight, extra, bool].forEach((t) => t.dispose());
    norm.dispose();
  });

  it('takes values not yet on a backend (shape + typed array, as readSafetensors gives them) and makes each tensor only to assign it', async () => {
    const norm = new LayerNorm(3);
    const before = memory().numTensors;
    norm.loadStateDict(new Map([['weight', { shape: [3], values: Float32Array.of(1, 2, 3) }], ['bias', { shape: [3], values: Int32Array.of(4, 5, 6) }]]));
    expect(memory().numTensors).toBe(before); // no tensor besides the parameters' own
    expect(Array.from(await norm.weight!.data())).toEqual([1, 2, 3]);
    expect(Array.from(await norm.bias!.data())).toEqual([4, 5, 6]);
    const wrong = thrown(() => norm.loadStateDict({ weight: { shape: [2], values: Float32Array.of(1, 2) }, bias: { shape: [3], values: Float32Array.of(0, 0, 0) } })) as StateDictError;
    expect(wrong.mismatchedKeys).toEqual([{ key: 'weight', expected: '[3] float32', received: '[2] float32' }]);
    norm.dispose();
  });

  it("reads '__proto__' and 'constructor' keys of a record as plain (unexpected) keys", () => {
    const norm = new LayerNorm(2);
    const state = JSON.parse('{"__proto__": 1, "constructor": 2}') as Record<string, never>;
    const error = thrown(() => norm.loadStateDict(state)) as StateDictError;
    expect(error.unexpectedKeys).toEqual(['__proto__', 'constructor']);
    expect(error.missingKeys).toEqual(['weight', 'bias']);
    norm.dispose();
  });

  it('refuses a disposed child, a cycle, and a train() mode that is not a boolean', () => {
    class Holder extends Module {
      hold<M extends Module>(name: string, child: M): M { return this.registerModule(name, child); }
    }
    const disposed = new Linear(2, 2);
    disposed.dispose();
    expect(thrown(() => new Holder().hold('a', disposed)).message).toBe("Holder.registerModule: 'module' must be a live Module; received a disposed Linear.");
    const outer = new Holder();
    const inner = outer.hold('inner', new Holder());
    expect(thrown(() => inner.hold('outer', outer)).message).toBe("Holder.registerModule: 'module' must be a module that does not contain this one (a tree, not a cycle); received a Holder containing this Holder.");
    expect(thrown(() => new Holder().hold('x', {} as never)).message).toMatch(/^Holder\.registerModule: 'module' must be a Module; received /);
    const live = new Linear(2, 2);
    expect(thrown(() => live.train('false' as never)).message).toBe("Linear.train: 'mode' must be a boolean; received string 'false'.");
    live.dispose();
  });

  it('keeps a 10 000-key error readable: the first keys of each kind, then a count', () => {
    const norm = new LayerNorm(2);
    const state = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`layer.${i}.weight`, norm.weight!]));
    const error = thrown(() => norm.loadStateDict(state)) as StateDictError;
    expect(error.unexpectedKeys).toHaveLength(10_000);
    expect(error.message.length).toBeLessThan(600);
    expect(error.message).toContain('10000 unexpected: layer.0.weight, ');
    expect(error.message).toContain(', and 9988 more.');
    norm.dispose();
  });

  it('casts int32 values into float32 parameters', async () => {
    const norm = new LayerNorm(2);
    norm.loadStateDict({ weight: tensor([3, 4], undefined, 'int32'), bias: tensor([0, 1]) });
    expect(norm.weight!.dtype).toBe('float32');
    expect(Array.from(await norm.weight!.data())).toEqual([3, 4]);
    norm.dispose();
  });

  it('train() and eval() set the mode of the whole tree; modules start in eval mode', () => {
    const stack = new Stack(2, 2);
    expect(stack.namedModules().every(([, m]) => !m.training)).toBe(true);
    stack.train();
    expect(stack.namedModules().every(([, m]) => m.training)).toBe(true);
    expect(stack.eval()).toBe(stack);
    expect(stack.layers[0]!.drop.training).toBe(false);
    stack.dispose();
  });

  it('dispose() frees the whole tree once; any later use throws UseAfterDisposeError', async () => {
    expect(await leaksOf(() => new Stack(8, 3).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const stack = new Stack(2, 1);
    stack.dispose();
    expect(stack.isDisposed).toBe(true);
    for (const use of [() => stack.namedParameters(), () => stack.stateDict(), () => stack.loadStateDict({}), () => stack.train(), () => stack.dispose(), () => stack.layers[0]!.attention.forward(zeros([1, 2]))]) {
      expect(thrown(use)).toBeInstanceOf(UseAfterDisposeError);
    }
    expect(thrown(() => stack.dispose()).message).toBe('Stack.dispose: called after dispose() freed its weights. Create a new instance instead.');
  });

  it('a constructor that fails half-way leaks no tensor (guard disposes what was registered)', () => {
    const before = memory().numTensors;
    expect(thrown(() => new Stack(4, 3, 2)).message).toBe('layer 2 failed');
    expect(memory().numTensors).toBe(before);
    expect(thrown(() => new Block(0))).toBeInstanceOf(InvalidArgumentError);
    expect(memory().numTensors).toBe(before);
  });

  it('rejects names that are empty, reused, or clash with a child path, and disposes the handed-over tensor', () => {
    class Clashing extends Module {
      constructor(name: string, child = false) {
        super();
        this.registerModule('out_proj', new Linear(2, 2));
        if (child) this.registerModule(name, new Linear(2, 2));
        else this.registerParameter(name, zeros([2]));
      }
    }
    const before = memory().numTensors;
    for (const [name, child] of [['out_proj', false], ['out_proj.weight', false], ['', false], ['a..b', false], ['a.b', true]] as Array<[string, boolean]>) {
      const error = thrown(() => new Clashing(name, child));
      expect(error, name).toBeInstanceOf(InvalidArgumentError);
      expect(error.message, name).toMatch(/^Clashing\.register(Parameter|Module): 'name' must be/);
    }
    expect(memory().numTensors).toBe(before); // a failed registration disposes what the module held, guard or not
  });
});

describe('Module subclasses in a plain tidy', () => {
  it('forward of a composed module leaks nothing', async () => {
    const block = new Block(4);
    const x: Tensor = ones([2, 4]);
    expect(await leaksOf(() => tidy(() => block.norm.forward(block.attention.forward(x))).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [x].forEach((t) => t.dispose());
    block.dispose();
  });
  it('refuses a method run on something that is no Module (a method taken off its module), naming the method', () => {
    const linear = new Linear(2, 2, { seed: 1 });
    const { stateDict, parameters, dispose, train } = linear;
    for (const [method, call] of [['stateDict', () => stateDict.call(undefined as never)], ['parameters', () => parameters.call({} as never)], ['dispose', () => dispose.call(null as never)], ['train', () => train.call(Object.create(Module.prototype) as never)]] as const) {
      const error = thrown(call);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(new RegExp(`^Module\\.${method}: 'this' must be a Module; received .*Call it on the module \\(model\\.${method}\\(\\.\\.\\.\\)\\)`));
    }
    expect(linear.isDisposed).toBe(false);
    linear.dispose();
  });
  it('loadStateDict refuses strict: null (no boolean), as every other option', () => {
    const linear = new Linear(2, 2, { seed: 1 });
    expect(thrown(() => linear.loadStateDict({}, { strict: null as never })).message).toBe("Linear.loadStateDict: 'strict' must be a boolean; received null.");
    linear.dispose();
  });
});
