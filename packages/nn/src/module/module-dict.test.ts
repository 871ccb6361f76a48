import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { LayerNorm } from '../layers/layer-norm.js';
import { Linear } from '../layers/linear.js';
import { Module } from './module.js';
import { ModuleDict } from './module-dict.js';

beforeAll(() => useBackend('cpu'));

describe('ModuleDict', () => {
  it('registers its modules under their keys, in order: they appear in namedParameters and stateDict with those keys', () => {
    const [sentiment, topic] = [new Linear(4, 2), new Linear(4, 3, { bias: false })];
    const heads = new ModuleDict({ sentiment, topic });
    expect([heads.size, heads.keys(), heads.get('topic')]).toEqual([2, ['sentiment', 'topic'], topic]);
    expect([heads.has('topic'), heads.has('other'), heads.values(), [...heads]]).toEqual([true, false, [sentiment, topic], [['sentiment', sentiment], ['topic', topic]]]);
    expect([...heads.stateDict().keys()]).toEqual(['sentiment.weight', 'sentiment.bias', 'topic.weight']);
    class Model extends Module {
      readonly heads = this.registerModule('heads', new ModuleDict(new Map([['b', new LayerNorm(2)], ['a', new LayerNorm(2)]])));
    }
    const model = new Model();
    expect(model.namedParameters().map(([key]) => key)).toEqual(['heads.b.weight', 'heads.b.bias', 'heads.a.weight', 'heads.a.bias']);
    model.loadStateDict(model.stateDict());
    [heads, model].forEach((m) => m.dispose());
  });

  it('owns its modules: dispose frees them all once, replaceModule updates the entry', async () => {
    expect(await leaksOf(() => new ModuleDict({ a: new Linear(2, 2), b: new Linear(2, 2) }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const dict = new ModuleDict({ a: new Linear(2, 2) });
    const old = dict.replaceModule('a', new LayerNorm(2));
    expect(dict.get('a')).toBeInstanceOf(LayerNorm);
    old.dispose();
    const a = dict.get('a');
    dict.dispose();
    expect(a.isDisposed).toBe(true);
    for (const use of [() => dict.get('a'), () => dict.keys(), () => [...dict], () => dict.size]) expect(thrown(use)).toBeInstanceOf(UseAfterDisposeError);
  });

  it('refuses a key it does not hold, naming the keys it has', () => {
    const dict = new ModuleDict({ query: new Linear(2, 2), value: new Linear(2, 2) });
    const error = thrown(() => dict.get('qeury' as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe('ModuleDict.get: \'key\' must be one of its keys (query, value); received "qeury".');
    dict.dispose();
  });

  it.each<[string, () => unknown, string]>([
    ['null', () => null, "ModuleDict: 'modules' must be a record or Map of name → Module; received null."],
    ['a list', () => [], "ModuleDict: 'modules' must be a record or Map of name → Module; received array []."],
    ['a value that is not a module', () => ({ a: new Linear(2, 2), b: 3, c: new Linear(2, 2) }), 'ModuleDict: \'modules["b"]\' must be a Module; received number 3.'],
    ['a dotted key', () => ({ 'a.b': new Linear(2, 2), c: new Linear(2, 2) }), "ModuleDict.registerModule: 'name' must be one path segment (no dots); received \"a.b\"."],
  ])('refuses %s; a failed construction disposes every module it was given', (_, make, message) => {
    const before = memory().numTensors;
    const error = thrown(() => new ModuleDict(make() as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    expect(memory().numTensors).toBe(before);
  });

  it('may be empty', () => {
    const empty = new ModuleDict({});
    expect([empty.size, empty.namedParameters()]).toEqual([0, []]);
    empty.dispose();
  });
});
