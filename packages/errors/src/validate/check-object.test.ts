import '@tensorflow/tfjs-backend-cpu'; // a backend for the tensor this test makes
import { setBackend, tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkObject } from './check-object.js';

beforeAll(() => setBackend('cpu'));

describe('checkObject', () => {
  it('returns a plain object and refuses everything else with a typed error naming the argument', () => {
    const config = { a: 1 };
    expect(checkObject(config, { caller: 'Layer', argument: 'config' })).toBe(config);
    for (const value of [undefined, null, 3, 'x', [1], tensor([1])]) expect(() => checkObject(value, { caller: 'Layer', argument: 'config' })).toThrow(InvalidArgumentError);
    expect(() => checkObject(undefined, { caller: 'Layer', argument: 'config', expected: 'a LayerConfig object' })).toThrow("Layer: 'config' must be a LayerConfig object; received undefined.");
  });

  it('refuses details that are no object, even for a valid value (a misuse fails where it is written)', () => {
    for (const details of [undefined, null, 'x', [1]]) {
      expect(() => checkObject({}, details as never)).toThrow(InvalidArgumentError);
      expect(() => checkObject({}, details as never)).toThrow(/^checkObject: 'details' must be an object \{ caller, argument, expected\? \}/);
    }
  });
});
