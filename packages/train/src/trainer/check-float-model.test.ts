import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { Linear, Module, quantizeLinearLayers } from '@attnkit/nn';
import { thrown } from '@attnkit/test-utils';
import { checkFloatModel } from './check-float-model.js';

/** Two Linear layers under `a` and `b`. */
class Two extends Module {
  constructor() {
    super();
    this.registerModule('a', new Linear(4, 4));
    this.registerModule('b', new Linear(4, 4));
  }
}

beforeAll(() => useBackend('cpu'));

describe('checkFloatModel', () => {
  it('passes a float model', () => {
    const model = new Two();
    expect(checkFloatModel([model], 'f', 'train')).toBeUndefined();
    model.dispose();
  });

  it('refuses one with Int8Linear layers, naming them and why', () => {
    const model = new Two().eval();
    quantizeLinearLayers(model);
    const error = thrown(() => checkFloatModel([model], 'saveSentenceFolder', 'save'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/saveSentenceFolder: 'model' must be a float model \(Int8Linear layers are inference only: int8 weights are not saved as parameters\); received an int8 model \(2 Int8Linear layers: a, b\)/);
    model.dispose();
  });
});
