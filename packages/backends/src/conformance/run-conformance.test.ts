import { tensor } from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import { useBackend } from '../use-backend.js';
import { CONFORMANCE_CASES } from './conformance-cases.js';
import { formatConformanceTable } from './format-conformance-table.js';
import { KNOWN_KERNEL_GAPS } from './known-kernel-gaps.js';
import { runConformance, type ConformanceResult } from './run-conformance.js';

const all: ConformanceResult[] = [];

describe.each(['cpu', 'wasm'] as const)('conformance on %s (Node)', (backend) => {
  it('every case within tolerance of float64, gaps exactly the known ones, no leaks', async () => {
    await useBackend(backend);
    let results: ConformanceResult[] = [];
    expect(await leaksOf(async () => (results = await runConformance()))).toEqual({ tensors: 0, bytes: 0 });
    all.push(...results);
    const failures = results.filter((r) => r.status === 'fail' || r.status === 'error');
    expect(failures).toEqual([]);
    const gaps = results.filter((r) => r.status === 'missing-kernel').map((r) => r.detail);
    expect(gaps).toEqual(KNOWN_KERNEL_GAPS[backend].map((k) => `no ${k} kernel`));
    expect(results.filter((r) => r.status === 'pass')).toHaveLength(CONFORMANCE_CASES.length - gaps.length);
  });
});

afterAll(() => {
  console.log(`\nConformance vs float64 (max abs error), Node:\n${formatConformanceTable(all)}\n`);
});

describe('runConformance on cases that cannot pass', () => {
  const base = { kernels: [], tolerance: { 32: 1e-6, 16: 1e-3 }, compute: () => tensor([1, 2]) };

  it('fails a case whose reference is wrong and passes the same case with the right one', async () => {
    await useBackend('cpu');
    const [right, wrong] = await runConformance([
      { ...base, name: 'right', reference: () => Float64Array.of(1, 2) },
      { ...base, name: 'wrong', reference: () => Float64Array.of(1, 2 + 1e-5) },
    ]);
    expect(right).toMatchObject({ status: 'pass', maxAbsError: 0 });
    expect(wrong).toMatchObject({ status: 'fail', tolerance: 1e-6 });
    expect(wrong?.maxAbsError).toBeCloseTo(1e-5, 10);
  });

  it('reports a case the engine cannot run as unavailable, with the reason, without computing it', async () => {
    await useBackend('cpu');
    const compute = vi.fn(base.compute);
    const results = await runConformance([{ ...base, compute, name: 'relaxed', reference: () => Float64Array.of(1, 2), available: () => 'no relaxed SIMD here' }]);
    expect(results).toEqual([{ case: 'relaxed', backend: 'cpu', status: 'unavailable', maxAbsError: NaN, tolerance: 1e-6, detail: 'no relaxed SIMD here' }]);
    expect(compute).not.toHaveBeenCalled();
  });
});
