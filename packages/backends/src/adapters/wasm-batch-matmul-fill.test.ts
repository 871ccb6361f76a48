import { engine, matMul, tensor, tidy } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { matMul64, transposeLast64 } from '../conformance/float64/matmul64.js';
import { seededValues } from '../conformance/seeded-values.js';
import { maxDifference } from '../max-difference.js';
import { useBackend } from '../use-backend.js';

const [batch, m, k, n] = [6, 5, 4, 3];

describe('wasm BatchMatMul fill (per-matrix XNNPACK on zero-copy views)', () => {
  it.each([[false, false], [false, true], [true, false], [true, true]] as const)('transposeA %s, transposeB %s: equals float64, repeatedly, with new values each call', async (ta, tb) => {
    const caps = await useBackend('wasm');
    expect(caps.filledKernels).toContain('BatchMatMul');
    for (let round = 0; round < 3; round++) { // new values at the same shapes: no stale cached operator state
      const a = seededValues(100 + round, batch * m * k);
      const b = seededValues(200 + round, batch * k * n);
      const aStored = ta ? Float32Array.from(transposeLast64(a, batch, m, k)) : a;
      const bStored = tb ? Float32Array.from(transposeLast64(b, batch, k, n)) : b;
      const y = tidy(() => matMul(tensor(aStored, [2, 3, ...(ta ? [k, m] : [m, k])]), tensor(bStored, [2, 3, ...(tb ? [n, k] : [k, n])]), ta, tb));
      expect(y.shape).toEqual([2, 3, m, n]);
      expect(maxDifference(await y.data(), matMul64(a, b, batch, m, k, n)).maxAbsDiff).toBeLessThan(1e-5);
      y.dispose();
    }
  });

  it('leaves no tensor and no backend data behind, and keeps broadcasting batches on the original kernel', async () => {
    await useBackend('wasm');
    const [a, b] = [tensor(seededValues(1, batch * m * k), [batch, m, k]), tensor(seededValues(2, k * n), [1, k, n])];
    const dataIds = (engine().backend as unknown as { numDataIds(): number }).numDataIds();
    expect(await leaksOf(() => { matMul(a, a, false, true).dispose(); matMul(a, b).dispose(); })).toEqual({ tensors: 0, bytes: 0 });
    expect((engine().backend as unknown as { numDataIds(): number }).numDataIds()).toBe(dataIds);
    const broadcast = matMul(a, b);
    expect(maxDifference(await broadcast.data(), matMul64(seededValues(1, batch * m * k), seededValues(2, k * n), batch, m, k, n, true)).maxAbsDiff).toBeLessThan(1e-5);
    [a, b, broadcast].forEach((t) => t.dispose());
  });
});
