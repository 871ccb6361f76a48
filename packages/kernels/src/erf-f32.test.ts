import { engine, erf, tensor1d, type Tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { erf64 } from './erf64.js';
import { useTfjsBackend } from './testing/use-tfjs-backend.js';
import { GELU_KERNEL } from './tfjs-fills/wasm-gelu-fill.js';
import { erfF32, geluF32 } from './erf-f32.js';

const POINTS = [
  ...Array.from({ length: 200_001 }, (_, i) => Math.fround(-10 + i / 10_000)),
  ...[NaN, Infinity, -Infinity, 0, -0, 1, -1, 0.99999994, 1.0000001, 4, -4, 1e-30, -1e-30, 3.4e38, -3.4e38, 40, -40],
];

describe('erfF32 and geluF32: the wasm kernels\' float32 arithmetic in JavaScript', () => {
  afterAll(() => useTfjsBackend('cpu'));

  it('equal the wasm erf and GELU kernels bit for bit (NaN, ±0, ±∞ and the branch edges included)', async () => {
    await useTfjsBackend('wasm');
    const x = tensor1d(POINTS);
    const [erfs, gelus] = await Promise.all([erf(x).data(), (engine().runKernel(GELU_KERNEL, { x }) as Tensor).data()]);
    const mismatches = POINTS.flatMap((p, i) => {
      const pairs = [[erfF32(p), erfs[i]!], [geluF32(p), gelus[i]!]] as const;
      return pairs.some(([js, kernel]) => !Object.is(js, kernel)) ? [`${p}: erf ${erfF32(p)} vs ${erfs[i]}, gelu ${geluF32(p)} vs ${gelus[i]}`] : [];
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('is within 2e-7 of float64 erf on [-10, 10]', () => {
    const worst = POINTS.filter(Number.isFinite).reduce((m, p) => Math.max(m, Math.abs(erfF32(p) - erf64(p))), 0);
    expect(worst).toBeLessThan(2e-7);
  });

  it.each([undefined, null, '1', {}, [1]])('refuses %s with a typed error naming a number', (x) => {
    expect(() => erfF32(x as number)).toThrow(/erfF32: 'x' must be a number/);
    expect(() => geluF32(x as number)).toThrow(/geluF32: 'x' must be a number/);
  });
});
