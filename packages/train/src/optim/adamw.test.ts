import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { add, memory, ones, scalar, sum, square, tensor, variable, variableGrads, zeros, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { LayerNorm, Linear, Module } from '@attnkit/nn';
import { useBackend } from '@attnkit/backends';
import { thrown } from '@attnkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { AdamW, type AdamWOptions } from './adamw.js';

beforeAll(() => useBackend('cpu'));

class Block extends Module {
  readonly dense = this.registerModule('dense', new Linear(3, 2, { seed: 1 }));
  readonly norm = this.registerModule('out', new LayerNorm(2)); // a LayerNorm whose name no pattern catches
}

describe('AdamW', () => {
  it('takes a Module: its trainable parameters, no decay for biases and every LayerNorm parameter (as the Trainer)', () => {
    const block = new Block();
    const optimizer = new AdamW(block);
    expect(optimizer.parameterGroups()).toEqual([{ names: ['dense.weight'], weightDecay: 0.01 }, { names: ['dense.bias', 'out.weight', 'out.bias'], weightDecay: 0 }]);
    expect(optimizer.getConfig()).toEqual({ learningRate: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0.01 });
    optimizer.dispose();
    block.dispose();
  });

  it('minimize() updates its own parameters only, and leaks nothing from step to step', () => {
    const mine = variable(tensor([1, -2]));
    const other = variable(tensor([5]));
    const optimizer = new AdamW([['w', mine]], { learningRate: 0.1, weightDecay: 0 });
    optimizer.minimize(() => add(sum(square(mine)), sum(other)) as never);
    mine.dataSync().forEach((value, i) => expect(value).toBeCloseTo([0.9, -1.9][i]!, 6)); // Adam's first step is ±lr
    expect(Array.from(other.dataSync())).toEqual([5]);
    const before = memory().numTensors;
    for (let i = 0; i < 3; i++) optimizer.minimize(() => sum(square(mine)));
    expect(memory().numTensors).toBe(before);
    optimizer.dispose();
    expect(memory().numTensors).toBe(before - 2); // the two moments
    [mine, other].forEach((v) => v.dispose());
  });

  it('the first step and importState keep exactly two moment variables per parameter, nothing else', async () => {
    const p = variable(tensor([1, 2, 3]));
    const optimizer = new AdamW([['w', p]], { learningRate: 0.1 });
    const gradient = tensor([0.5, 0.5, 0.5]);
    const before = memory().numTensors;
    optimizer.applyGradients({ [p.name]: gradient });
    expect(memory().numTensors).toBe(before + 2);
    const state = await optimizer.exportState();
    const restored = new AdamW([['w', p]], { learningRate: 0.1 });
    const beforeImport = memory().numTensors;
    restored.importState(state);
    expect(memory().numTensors).toBe(beforeImport + 2);
    [optimizer, restored].forEach((o) => o.dispose());
    [p, gradient].forEach((t) => t.dispose());
  });

  it('decays before the Adam update, with the learning rate of the step (p ← p − lr·wd·p)', () => {
    const p = variable(tensor([2]));
    const optimizer = new AdamW([['w', p]], { learningRate: 0.5, weightDecay: 0.1 });
    const zero = tensor([0]);
    optimizer.applyGradients({ [p.name]: zero }); // zero gradient: only the decay moves it
    expect(p.dataSync()[0]).toBeCloseTo(2 * (1 - 0.05), 6);
    optimizer.learningRate = 0;
    optimizer.applyGradients({ [p.name]: zero });
    expect(p.dataSync()[0]).toBeCloseTo(1.9, 6);
    expect(optimizer.iterations).toBe(2);
    [p, zero].forEach((t) => t.dispose());
    optimizer.dispose();
  });

  it('works with variableGrads and applyGradients (gradients are not disposed)', () => {
    const linear = new Linear(3, 2, { seed: 3 });
    const optimizer = new AdamW(linear);
    const x = ones([4, 3]);
    const { value, grads } = variableGrads(() => sum(square(linear.forward(x))) as never, linear.trainableParameters());
    optimizer.applyGradients(grads);
    expect(Object.values(grads).every((g) => !g.isDisposed)).toBe(true);
    [value, x, ...Object.values(grads)].forEach((t) => t.dispose());
    optimizer.dispose();
    linear.dispose();
  });
});

describe('AdamW input checks', () => {
  const p = (): Variable => variable(zeros([2]));
  it.each([
    [{ learningRate: -1 }, "AdamW: 'learningRate' must be a finite number ≥ 0; received number -1."],
    [{ learningRate: NaN }, "AdamW: 'learningRate' must be a finite number ≥ 0; received number NaN."],
    [{ betas: [0.9, 1] }, "AdamW: 'betas' must be two numbers in [0, 1), e.g. [0.9, 0.999]; received array [0.9,1]."],
    [{ eps: -1e-8 }, "AdamW: 'eps' must be a finite number ≥ 0; received number -1e-8."],
    [{ weightDecay: Infinity }, "AdamW: 'weightDecay' must be a finite number ≥ 0; received number Infinity."],
    [{ noDecay: 'bias' }, "AdamW: 'noDecay' must be a function (name) => boolean; received string 'bias'."],
    [{ lr: 1e-3 }, "AdamW: 'options' must be an object with only the keys learningRate, betas, eps, weightDecay, noDecay; received the unknown key 'lr'."],
    [{ weight_decay: 0.1 }, "AdamW: 'options' must be an object with only the keys learningRate, betas, eps, weightDecay, noDecay; received the unknown key 'weight_decay'. Did you mean 'weightDecay'?"],
  ])('refuses options %j with a typed error', (options, message) => {
    const v = p();
    const error = thrown(() => new AdamW([['w', v]], options as AdamWOptions));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
    v.dispose();
  });

  it('refuses bad parameter lists', () => {
    const v = p();
    const t = ones([1]);
    for (const [parameters, message] of [
      [[], "AdamW: 'parameters' must be at least one parameter (as torch.optim: an empty parameter list is an error); received none."],
      [[['w', v], ['w', v]], "AdamW: 'parameters[1]' must be a name not used by another parameter; received 'w' again."],
      [[['w', t]], "AdamW: 'parameters[0]' must be a [name, Variable] pair with a live float32 variable; received array [\"w\",tensor]."],
      [3, "AdamW: 'parameters' must be a Module or [name, Variable] pairs (module.namedParameters()); received number 3."],
    ] as const) {
      const error = thrown(() => new AdamW(parameters as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(message);
    }
    [v, t].forEach((x) => x.dispose());
  });

  it('refuses gradients of other variables or of the wrong shape, and a bad learning rate, changing nothing', () => {
    const v = p();
    const optimizer = new AdamW([['w', v]]);
    const wrong = ones([3]);
    const first = thrown(() => optimizer.applyGradients({ nope: wrong }));
    expect(first).toBeInstanceOf(InvalidArgumentError);
    expect(first.message).toBe(`AdamW.applyGradients: 'gradients' must be gradients of this optimiser's parameters, keyed by variable name (as variableGrads returns them); received the unknown key string 'nope'. Its parameters are w (variable ${v.name}).`);
    const second = thrown(() => optimizer.applyGradients({ [v.name]: wrong }));
    expect(second.message).toBe("AdamW.applyGradients: 'gradients[w]' must be a float32 tensor of the parameter's shape [2]; received [3].");
    expect(optimizer.iterations).toBe(0);
    expect(() => (optimizer.learningRate = -0.1)).toThrow("AdamW: 'learningRate' must be a finite number ≥ 0; received number -0.1.");
    optimizer.dispose();
    [v, wrong].forEach((x) => x.dispose());
  });

  it('refuses state of unknown parameters or shapes, and throws UseAfterDisposeError after dispose()', async () => {
    const v = p();
    const optimizer = new AdamW([['w', v]]);
    const g = ones([2]);
    optimizer.applyGradients({ [v.name]: g });
    const state = await optimizer.exportState();
    expect(state.step).toBe(1);
    expect(state.parameters['w']!.expAvg.values).toBeInstanceOf(Float32Array);
    const unknown = thrown(() => optimizer.importState({ ...state, parameters: { x: state.parameters['w']! } }));
    expect(unknown).toBeInstanceOf(InvalidArgumentError);
    expect(unknown.message).toBe("AdamW.importState: 'state.parameters' must be moments of this optimiser's parameters (w); received the unknown name 'x'.");
    const shape = thrown(() => optimizer.importState({ ...state, parameters: { w: { ...state.parameters['w']!, expAvg: { shape: [3], values: new Float32Array(3) } } } }));
    expect(shape.message).toBe("AdamW.importState: 'state.parameters['w']' must be { step ≥ 1, expAvg, expAvgSq } with Float32Array values of shape [2]; received Object.");
    optimizer.dispose();
    expect(() => optimizer.applyGradients({ [v.name]: g })).toThrow(UseAfterDisposeError);
    expect(() => optimizer.dispose()).toThrow('AdamW.dispose: called after dispose() freed its weights. Create a new instance instead.');
    [v, g].forEach((x) => x.dispose());
    scalar(0).dispose();
  });
});

describe('AdamW.minimize input checks', () => {
  beforeAll(() => useBackend('cpu'));
  it('refuses an f that is no function, a returnCost that is no boolean and a varList that is no list of Variables, and leaks nothing', () => {
    const w = variable(tensor([1, -2]));
    const optimizer = new AdamW([['w', w]]);
    const before = memory().numTensors;
    expect(thrown(() => optimizer.minimize(undefined as never))).toBeInstanceOf(InvalidArgumentError); // tfjs' own message before
    expect(() => optimizer.minimize('x' as never)).toThrow(/AdamW.minimize: 'f' must be a function returning the loss/);
    expect(() => optimizer.minimize(() => sum(square(w)), 'x' as never)).toThrow("AdamW.minimize: 'returnCost' must be a boolean; received string 'x'.");
    expect(() => optimizer.minimize(() => sum(square(w)), false, [w, , w] as never)).toThrow(/AdamW.minimize: 'varList' must be a list of Variables or undefined/); // eslint-disable-line no-sparse-arrays
    expect(() => optimizer.minimize(() => sum(square(w)), false, {} as never)).toThrow(/'varList'/);
    expect(memory().numTensors).toBe(before);
    const cost = optimizer.minimize(() => sum(square(w)), true)!;
    expect(cost.dataSync()[0]).toBe(5);
    cost.dispose();
    optimizer.dispose();
    w.dispose();
  });
});
