import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { Linear, Module, skipInitialization } from '@attnkit/nn';
import { fillClassifier } from './fill-classifier.js';

/** A body and a head, built without drawing values, as the classifiers are. */
class Tiny extends Module {
  readonly body: Linear;
  readonly classifier: Linear;
  constructor() {
    super();
    [this.body, this.classifier] = skipInitialization(() => [this.registerModule('body', new Linear(2, 2)), this.registerModule('classifier', new Linear(2, 1))] as const);
  }
}
const BODY = { 'body.weight': { shape: [2, 2], values: new Float32Array([1, 2, 3, 4]) }, 'body.bias': { shape: [2], values: new Float32Array([5, 6]) } };
const HEAD = { 'classifier.weight': { shape: [1, 2], values: new Float32Array([7, 8]) }, 'classifier.bias': { shape: [1], values: new Float32Array([9]) } };
const values = async (m: Tiny) => Promise.all(m.namedParameters().map(async ([k, p]) => [k, Array.from(await p.data())] as const));

beforeAll(() => useBackend('cpu'));

describe('fillClassifier', () => {
  it('loads a whole checkpoint strictly, and refuses one without its head unless the head is a new-keys group', async () => {
    const whole = new Tiny();
    expect(fillClassifier(whole, { ...BODY, ...HEAD }, { initializerRange: 0.02 })).toEqual([]);
    expect((await values(whole)).map(([, v]) => v)).toEqual([[1, 2, 3, 4], [5, 6], [7, 8], [9]]);
    expect(() => fillClassifier(new Tiny(), BODY, { initializerRange: 0.02 })).toThrow(/2 missing: classifier\.weight, classifier\.bias/);
    const fresh = new Tiny();
    expect(fillClassifier(fresh, BODY, { initializerRange: 0.02, seed: 3, newKeys: [['classifier.weight', 'classifier.bias']] })).toEqual(['classifier.weight', 'classifier.bias']);
    const [weight, bias] = (await values(fresh)).slice(2).map(([, v]) => v);
    expect([weight!.some((v) => v !== 0), bias]).toEqual([true, [0]]); // N(0, 0.02) and a zero bias, as transformers' _init_weights
    [whole, fresh].forEach((m) => m.dispose());
  });

  it('keeps a group the checkpoint has part of strict, and initialises everything without a checkpoint', async () => {
    expect(() => fillClassifier(new Tiny(), { ...BODY, 'classifier.weight': HEAD['classifier.weight'] }, { initializerRange: 0.02, newKeys: [['classifier.weight', 'classifier.bias']] })).toThrow(/1 missing: classifier\.bias/);
    const random = new Tiny();
    expect(fillClassifier(random, undefined, { initializerRange: 0.02, seed: 1 })).toEqual(['body.weight', 'body.bias', 'classifier.weight', 'classifier.bias']);
    random.dispose();
  });
});
