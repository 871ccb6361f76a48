import { concat, engine, reshape, mul, randomNormal, sigmoid, split, sum, tensor1d, variable, variableGrads, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf } from '@attnkit/test-utils';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { SILU_MUL_KERNEL } from './tfjs-fills/wasm-silu-mul-fill.js';
import { freezeInt8Weight } from './frozen-int8-weight.js';
import { InferenceOnlyError } from './inference-only-error.js';
import { int8GatedFeedForward } from './int8-gated-feed-forward.js';
import { int8Kernels } from './int8-kernels.js';
import { int8MatMul } from './int8-mat-mul.js';
import { withSmallJobWork } from './kernel-threads.js';
import { quantizeWeightPerChannel } from './quantize-weight-per-channel.js';

const EPS = 1e-5;

/** x [rows, K], gate/up stacked [2F, K] and down [M, F] int8, their biases, a residual [rows, M], norm weights [K]. */
function make(rows: number, depth: number, hidden: number, width: number) {
  const gate = randomNormal([depth, hidden], 0, 0.3, 'float32', 11);
  const up = randomNormal([depth, hidden], 0, 0.3, 'float32', 12);
  return {
    x: randomNormal([rows, depth], 0, 2, 'float32', 13),
    gateUp: quantizeWeightPerChannel(concat([gate, up], 1)), // [K, 2F] -> int8 [2F, K], the gate's rows first
    down: quantizeWeightPerChannel(randomNormal([hidden, width], 0, 0.3, 'float32', 14)),
    gateUpBias: randomNormal([2 * hidden], 0, 0.5, 'float32', 15),
    downBias: randomNormal([width], 0, 0.5, 'float32', 16),
    residual: randomNormal([rows, width], 0, 2, 'float32', 17),
    gamma: randomNormal([depth], 1, 0.2, 'float32', 18),
    beta: randomNormal([depth], 0, 0.2, 'float32', 19),
  };
}

/** What int8GatedFeedForward replaces: the gate/up product, silu(gate) · up, the down product (+ residual). */
function unfused(x: Tensor, t: ReturnType<typeof make>, options: { kernel: string; bias: boolean; norm?: 'rmsNorm' | 'layerNorm'; residual: boolean; siluKernel: boolean }): Tensor {
  const kernel = options.kernel as never;
  const inputNorm = options.norm === undefined ? {} : { inputNorm: options.norm === 'rmsNorm' ? { kind: 'rmsNorm' as const, weight: t.gamma, epsilon: EPS } : { kind: 'layerNorm' as const, weight: t.gamma, bias: t.beta, epsilon: EPS } };
  const both = int8MatMul(x, t.gateUp, options.bias ? t.gateUpBias : undefined, { kernel, ...inputNorm });
  const hidden = options.siluKernel ? engine().runKernel(SILU_MUL_KERNEL, { x: both }) as Tensor : ((([g, u]) => mul(mul(g!, sigmoid(g!)), u!))(split(both, 2, -1)));
  return int8MatMul(hidden, t.down, options.bias ? t.downBias : undefined, { kernel, ...(options.residual ? { residual: t.residual } : {}) });
}

// F = 7 (a scalar tail in silu · up) and 40, K odd and SmolLM's 576; one row (a decoding step) and rows that do not split evenly over the threads.
describe.each([[1, 45, 7, 9], [5, 45, 40, 24], [1, 576, 40, 576], [13, 576, 7, 40]] as const)('int8GatedFeedForward (N = %i, K = %i, F = %i, M = %i)', (rows, depth, hidden, width) => {
  afterAll(() => useTfjsBackend('cpu'));

  it('on wasm equals the gate/up product, the SiLU · up kernel and the down product, bit for bit, on every kernel, split over the threads or not', async () => {
    await useTfjsBackend('wasm');
    const t = make(rows, depth, hidden, width);
    for (const kernel of int8Kernels().supported) {
      for (const split of [false, true]) {
        const run = <T>(fn: () => T) => (split ? withSmallJobWork(0, fn) : fn());
        const cases = [
          { bias: false, residual: false },
          { bias: true, residual: true, norm: 'rmsNorm' as const },
          { bias: true, residual: false, norm: 'layerNorm' as const },
          { bias: false, residual: true },
        ];
        for (const c of cases) {
          const inputNorm = c.norm === undefined ? {} : { inputNorm: c.norm === 'rmsNorm' ? { kind: 'rmsNorm' as const, weight: t.gamma, epsilon: EPS } : { kind: 'layerNorm' as const, weight: t.gamma, bias: t.beta, epsilon: EPS } };
          const options = { kernel, ...(c.bias ? { gateUpBias: t.gateUpBias, downBias: t.downBias } : {}), ...(c.residual ? { residual: t.residual } : {}), ...inputNorm };
          const got = run(() => int8GatedFeedForward(t.x, t.gateUp, t.down, options));
          expect(got.shape).toEqual([rows, width]);
          expect(Array.from(got.dataSync()), `${kernel} ${JSON.stringify(c)}${split ? ', split' : ''}`).toEqual(Array.from(unfused(t.x, t, { kernel, siluKernel: true, ...c }).dataSync()));
        }
      }
      const frozen = int8GatedFeedForward(t.x, freezeInt8Weight(t.gateUp), freezeInt8Weight(t.down), { kernel, residual: t.residual }); // kept panels, a second call reusing them
      expect(Array.from(int8GatedFeedForward(t.x, freezeInt8Weight(t.gateUp), freezeInt8Weight(t.down), { kernel, residual: t.residual }).dataSync())).toEqual(Array.from(frozen.dataSync()));
      expect(Array.from(frozen.dataSync()), `${kernel} frozen`).toEqual(Array.from(unfused(t.x, t, { kernel, siluKernel: true, bias: false, residual: true }).dataSync()));
    }
  });

  it("on cpu equals the products with tfjs' gate · sigmoid(gate) · up, bit for bit, on every kernel", async () => {
    await useTfjsBackend('cpu');
    const t = make(rows, depth, hidden, width);
    for (const kernel of int8Kernels().supported) {
      const got = int8GatedFeedForward(t.x, t.gateUp, t.down, { kernel, gateUpBias: t.gateUpBias, downBias: t.downBias, residual: t.residual, inputNorm: { kind: 'rmsNorm', weight: t.gamma, epsilon: EPS } });
      expect(Array.from(got.dataSync()), kernel).toEqual(Array.from(unfused(t.x, t, { kernel, siluKernel: false, bias: true, residual: true, norm: 'rmsNorm' }).dataSync()));
    }
  });

  it('leaks nothing', async () => {
    for (const backend of ['wasm', 'cpu'] as const) {
      await useTfjsBackend(backend);
      const t = make(rows, depth, hidden, width);
      expect(await leaksOf(() => int8GatedFeedForward(t.x, t.gateUp, t.down, { gateUpBias: t.gateUpBias, residual: t.residual, inputNorm: { kind: 'rmsNorm', weight: t.gamma, epsilon: EPS } }).dispose()), backend).toEqual({ tensors: 0, bytes: 0 });
    }
  });
});

describe('int8GatedFeedForward: batch axes, empty inputs and bad inputs', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it('keeps the leading axes, and gives [..., M] zeros (or the residual) for no rows', async () => {
    await useTfjsBackend('wasm');
    const t = make(6, 16, 8, 5);
    const flat = int8GatedFeedForward(t.x, t.gateUp, t.down);
    expect(Array.from(int8GatedFeedForward(reshape(t.x, [2, 3, 16]), t.gateUp, t.down).dataSync())).toEqual(Array.from(flat.dataSync()));
    expect(int8GatedFeedForward(reshape(t.x, [2, 3, 16]), t.gateUp, t.down).shape).toEqual([2, 3, 5]);
    expect(int8GatedFeedForward(zeros([0, 16]), t.gateUp, t.down).shape).toEqual([0, 5]);
  });

  it('refuses a NaN in x, and names a non-finite silu(gate) · up', async () => {
    await useTfjsBackend('wasm');
    const t = make(2, 4, 2, 3);
    const x = reshape(tensor1d([1, 2, Number.NaN, 4, 0, 0, 0, 0]), [2, 4]);
    expect(() => int8GatedFeedForward(x, t.gateUp, t.down)).toThrow(/'x' must be finite values only .*received NaN at flat index 2/);
    const huge = reshape(tensor1d([3e38, 3e38, 3e38, 3e38]), [1, 4]);
    const big = quantizeWeightPerChannel(reshape(tensor1d(Array.from({ length: 16 }, () => 1)), [4, 4])); // every gate and up = Σ x ≈ +∞
    expect(() => int8GatedFeedForward(huge, big, t.down)).toThrow(/int8GatedFeedForward: 'x' must be finite values only .*received Infinity in silu\(gate\) · up at flat index 0/);
  });

  it.each([
    ['x of another width', (t: ReturnType<typeof make>) => int8GatedFeedForward(zeros([2, 5]), t.gateUp, t.down), /'x' must be a float32 tensor \[\.\.\., K\] with K = 4 \(gateUp is \[2F, K\] = \[4, 4\]\); received rank 2 \[2, 5\]/],
    ['gateUp not twice down\'s width', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, quantizeWeightPerChannel(zeros([4, 3])), t.down), /'gateUp' must be \[2F, K\] with 2F = 4 \(twice down's F: down is \[M, F\] = \[3, 2\]\); received \[3, 4\]/],
    ['a gateUpBias of another length', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, t.gateUp, t.down, { gateUpBias: zeros([3]) }), /'gateUpBias' must be a float32 tensor \[2F\] = \[4\]; received \[3\]/],
    ['a downBias of rank 2', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, t.gateUp, t.down, { downBias: zeros([1, 3]) }), /'downBias' must be a float32 tensor of rank 1 \[M\]/],
    ['a residual of another shape', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, t.gateUp, t.down, { residual: zeros([2, 4]) }), /'residual' must be a float32 tensor of the output's shape \[2, 3\]; received \[2, 4\]/],
    ['an input norm of another length', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, t.gateUp, t.down, { inputNorm: { kind: 'rmsNorm', weight: zeros([3]), epsilon: EPS } }), /'inputNorm.weight' must be a float32 tensor \[K\] with K = 4/],
    ['an unknown option', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, t.gateUp, t.down, { bias: zeros([3]) } as never), /unknown key 'bias'/],
    ['a down that is not an Int8Weight', (t: ReturnType<typeof make>) => int8GatedFeedForward(t.x, t.gateUp, { values: new Int8Array(3) } as never), /int8GatedFeedForward: 'down' must be/],
    ['an int32 x', (t: ReturnType<typeof make>) => int8GatedFeedForward(zeros([2, 4], 'int32'), t.gateUp, t.down), /'x' must be a float32 tensor/],
  ])('refuses %s with a typed error', async (_name, call, message) => {
    await useTfjsBackend('wasm');
    const t = make(2, 4, 2, 3);
    let error: unknown;
    try { call(t); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });

  it('throws InferenceOnlyError instead of silently cutting the gradient', async () => {
    await useTfjsBackend('cpu');
    const t = make(2, 4, 2, 3);
    const x = variable(t.x);
    expect(() => variableGrads(() => sum(int8GatedFeedForward(x, t.gateUp, t.down)) as never, [x])).toThrow(InferenceOnlyError);
  });
});
