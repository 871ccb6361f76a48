import { add, div, engine, getBackend, matMul, reshape, softmax, tensor, tensor2d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { compareBackends } from './compare-backends.js';
import { InvalidArgumentError } from '@attnkit/errors';
import { UnknownBackendError } from './errors/unknown-backend-error.js';
import { useBackend } from './use-backend.js';
import { withBackend } from './with-backend.js';

const a = [0.5, -1, 2, 0.25, 3, -0.75];
const b = [1, 2, -1, 0.5, 0.25, -3];
const product = () => matMul(tensor(a, [2, 3]), tensor(b, [3, 2]));
const product64 = [0.5 * 1 + -1 * -1 + 2 * 0.25, 0.5 * 2 + -1 * 0.5 + 2 * -3, 0.25 * 1 + 3 * -1 + -0.75 * 0.25, 0.25 * 2 + 3 * 0.5 + -0.75 * -3];

describe('compareBackends', () => {
  it('compares every backend with float64 reference values, per named output', async () => {
    const report = await compareBackends(() => ({ product: product(), probabilities: softmax(product()) }), {
      backends: ['cpu', 'wasm'],
      tolerance: 1e-6,
      reference: { product: product64, probabilities: softmaxOf(product64) },
    });
    expect(report.reference).toBe('float64');
    expect(report.ok).toBe(true);
    expect(report.results.map((r) => r.backend)).toEqual(['cpu', 'wasm']);
    for (const { outputs } of report.results) {
      expect(outputs.map((o) => o.output)).toEqual(['product', 'probabilities']);
      expect(outputs[0]?.shape).toEqual([2, 2]);
      for (const o of outputs) expect(o.maxAbsDiff).toBeLessThan(1e-6);
    }
  });

  it('uses the baseline backend when there are no reference values, and flags what exceeds the tolerance', async () => {
    // A deliberately wrong wasm-only offset must show up as a failure.
    const report = await compareBackends(() => (engine().backendName === 'wasm' ? add(product(), 1e-3) : product()), {
      backends: ['wasm'],
      tolerance: { wasm: 1e-4 },
    });
    expect(report.reference).toBe('cpu');
    expect(report.ok).toBe(false);
    const [out] = report.results[0]?.outputs ?? [];
    expect(out?.withinTolerance).toBe(false);
    expect(out?.maxAbsDiff).toBeCloseTo(1e-3, 6);
    expect(out?.tolerance).toBe(1e-4);
  });

  it('bounds a comparison without a tolerance by defaultTolerance: agreement passes, a wrong side fails', async () => {
    await useBackend('cpu');
    const agreeing = await compareBackends(product, { backends: ['wasm'] });
    expect(agreeing.ok).toBe(true);
    expect(agreeing.results[0]!.outputs[0]!.tolerance).toBeGreaterThan(0);
    const shifted = await compareBackends(() => (engine().backendName === 'wasm' ? add(product(), 0.05) : product()), { backends: ['wasm'] });
    expect(shifted.ok).toBe(false);
    expect(shifted.results[0]!.outputs[0]).toMatchObject({ withinTolerance: false });
  });

  it('refuses a tolerance that is not a finite number ≥ 0 or names an unknown backend', async () => {
    for (const tolerance of [-1, NaN, Infinity, 'x', [1e-4], { wasm: -1 }]) {
      const error = await compareBackends(product, { backends: ['cpu'], tolerance: tolerance as never }).catch((e: unknown) => e);
      expect(error, String(tolerance)).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/^compareBackends: 'tolerance(\.wasm)?' must be a finite number ≥ 0/);
    }
    await expect(compareBackends(product, { backends: ['cpu'], tolerance: { gpu: 1 } as never })).rejects.toThrow(UnknownBackendError);
    await expect(compareBackends(product, { backends: ['cpu'], tolerance: {} })).rejects.toThrow(/^compareBackends: 'tolerance' must be a finite number ≥ 0/); // {} would mean the defaults
    await expect(compareBackends(product, { backends: ['cpu'], reference: null as never })).rejects.toThrow(/^compareBackends: 'reference' must be an object of output name to its float64 values/);
    await expect(compareBackends(product, { backends: ['cpu'], reference: { y: 3 } as never })).rejects.toThrow(/^compareBackends: 'reference' must be/);
    await expect(compareBackends(product, { backends: ['cpu'], baseline: null as never })).rejects.toThrow(UnknownBackendError); // null is no backend, not cpu
  });

  it('restores the backend that was active and leaks nothing', async () => {
    await useBackend('wasm');
    expect(await leaksOf(() => compareBackends(product, { backends: ['cpu'] }))).toEqual({ tensors: 0, bytes: 0 });
    expect(engine().backendName).toBe('wasm');
  });

  it('rejects empty and unknown backend lists and references that miss an output', async () => {
    await expect(compareBackends(product, { backends: [] })).rejects.toThrow(
      "compareBackends: 'backends' must be at least one backend name; received [].",
    );
    await expect(compareBackends(product, { backends: ['gpu'] })).rejects.toThrow(UnknownBackendError);
    const error = await compareBackends(product, { backends: ['cpu'], reference: { y: product64 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(
      "compareBackends: 'reference' must be a value for every output of fn (output); received keys y.",
    );
    await expect(compareBackends(product, { backends: ['cpu'], reference: { output: [1, 2] } })).rejects.toThrow(
      "compareBackends: 'actual' must be 2 values, as many as the reference; received 4 values.",
    );
  });

  it('fails a comparison whose sides are both NaN against a baseline backend, and passes NaN only where float64 values have it', async () => {
    await useBackend('cpu');
    const report = await compareBackends(() => div(tensor([0, 1]), tensor([0, 1])), { backends: ['wasm'], tolerance: 1e-6 });
    expect(report.results[0]!.outputs[0]).toMatchObject({ nanCount: 1, withinTolerance: false });
    expect(report.ok).toBe(false);
    const exact = await compareBackends(() => div(tensor([0, 1]), tensor([0, 1])), { backends: ['cpu', 'wasm'], tolerance: 1e-6, reference: { output: [NaN, 1] } });
    expect(exact.ok).toBe(true);
    const wrong = await compareBackends(() => div(tensor([0, 1]), tensor([0, 1])), { backends: ['wasm'], tolerance: 1e-6, reference: { output: [0, 1] } });
    expect(wrong.ok).toBe(false);
  });

  it('computes each side on the backend it names while other calls overlap, and never changes the active backend', async () => {
    await useBackend('cpu');
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    const traced = (seen: string[]) => () => {
      seen.push(getBackend());
      return product();
    };
    const one: string[] = [];
    const two: string[] = [];
    const three: string[] = [];
    const switching = withBackend('wasm', async () => { for (let i = 0; i < 5; i++) await tick(); });
    const reports = await Promise.all([
      compareBackends(traced(one), { backends: ['wasm'], baseline: 'cpu' }),
      compareBackends(traced(two), { backends: ['cpu', 'wasm'], baseline: 'wasm' }),
      compareBackends(traced(three), { backends: ['wasm', 'wasm'], baseline: 'cpu' }),
    ]);
    await switching;
    expect([one, two, three]).toEqual([['cpu', 'wasm'], ['wasm', 'cpu', 'wasm'], ['cpu', 'wasm', 'wasm']]);
    expect(reports.every((r) => r.ok)).toBe(true);
    expect(getBackend()).toBe('cpu');
  });
});

function softmaxOf(row: number[]): number[] {
  return [0, 2].flatMap((i) => {
    const pair = row.slice(i, i + 2);
    const m = Math.max(...pair);
    const e = pair.map((v) => Math.exp(v - m));
    return e.map((v) => v / (e[0]! + e[1]!));
  });
}

describe('compareBackends: what fn returns', () => {
  it("never disposes a tensor fn did not create (the caller's input)", async () => {
    await useBackend('cpu');
    const x = tensor([1, 2]);
    const report = await compareBackends(() => x, { backends: ['wasm'] });
    expect(report.ok).toBe(true);
    expect(x.isDisposed).toBe(false);
    expect(Array.from(await x.data())).toEqual([1, 2]);
    x.dispose();
  });

  it.each([
    ['an async fn', () => Promise.resolve(tensor([1])), "compareBackends: 'fn' must be a synchronous function returning tensors (it runs inside tf.tidy); received a function that returned a Promise. Compute the tensors synchronously; await any data before calling compareBackends."],
    ['no outputs', () => ({}), "compareBackends: 'fn' must be a function returning at least one tensor; received a result with no outputs. An empty list or record compares nothing."],
    ['a nested record', () => ({ a: { b: tensor([1]) } }), "compareBackends: 'fn' must be a function whose result is live tensors (outputs are a tensor, a list of tensors or an object of named tensors, not nested); received a result.a that is Object."],
    ['a number in a list', () => [tensor([1]), 3], "compareBackends: 'fn' must be a function whose result is live tensors (outputs are a tensor, a list of tensors or an object of named tensors, not nested); received a result.1 that is number 3."],
  ] as const)('refuses %s with a typed error and leaks nothing', async (_, fn, message) => {
    await useBackend('cpu');
    const leaks = await leaksOf(async () => {
      const error = await compareBackends(fn as never, { backends: ['wasm'] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toBe(message);
    });
    expect(leaks.tensors).toBe(0);
  });

  it('refuses a disposed output with a typed error', async () => {
    await useBackend('cpu');
    const gone = tensor([1]);
    gone.dispose();
    const error = await compareBackends(() => gone, { backends: ['wasm'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe("compareBackends: 'fn' must be a function whose result is live tensors (outputs are a tensor, a list of tensors or an object of named tensors, not nested); received a result that is a disposed float32 tensor [1]. It was disposed before it was returned.");
  });

  it('fails outputs of another shape with the same number of values, outputs a backend never produced, and reference outputs nobody compared', async () => {
    const x = tensor2d([[1, 2, 3], [4, 5, 6]]);
    try {
      const reshaped = await compareBackends(() => (getBackend() === 'wasm' ? reshape(x, [3, 2]) : x.clone()), { backends: ['wasm'], tolerance: 1 });
      expect(reshaped.ok).toBe(false);
      expect(reshaped.results[0]!.outputs[0]).toMatchObject({ problem: 'shape [3, 2], the cpu baseline\'s [2, 3]', withinTolerance: false, maxAbsDiff: 0 });
      const fewer = await compareBackends(() => (getBackend() === 'wasm' ? { a: x.clone() } : { a: x.clone(), b: x.clone() }), { backends: ['wasm'] });
      expect(fewer.ok).toBe(false);
      expect(fewer.results[0]!.outputs.map((o) => [o.output, o.problem])).toEqual([['a', undefined], ['b', 'not produced on wasm (the cpu baseline has it)']]);
      const unused = await compareBackends(() => ({ a: x.clone() }), { backends: ['cpu'], reference: { a: [1, 2, 3, 4, 5, 6], b: [0] } });
      expect(unused.ok).toBe(false);
      expect(unused.results[0]!.outputs[1]).toMatchObject({ output: 'b', problem: 'not produced on cpu (the reference has it)', withinTolerance: false });
    } finally {
      x.dispose();
    }
  });
});
