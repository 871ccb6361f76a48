import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../use-backend.js';
import { formatConformanceTable } from '../format-conformance-table.js';
import { runConformance, type ConformanceResult } from '../run-conformance.js';
import { leaksOf } from '@attnkit/test-utils';
import { f32Kernels, int8Kernels } from '@attnkit/kernels';
import { KERNEL_CONFORMANCE_CASES } from './kernel-conformance-cases.js';

const all: ConformanceResult[] = [];

describe('kernel conformance in Chromium', () => {
  afterAll(() => useBackend('cpu'));

  it('runs every int8 and float32 kernel here, relaxed SIMD included', () => {
    expect(int8Kernels().supported).toEqual(['relaxed-simd', 'simd', 'js']);
    expect(f32Kernels().supported).toEqual(['relaxed-simd', 'simd']);
  });

  it.each(['cpu', 'wasm', 'webgl', 'webgpu'] as const)('%s: every case within its float32 bound of float64, no leaks', async (backend) => {
    const caps = await useBackend(backend);
    expect(caps).toMatchObject({ backend, floatPrecision: 32 });
    let results: ConformanceResult[] = [];
    expect(await leaksOf(async () => (results = await runConformance(KERNEL_CONFORMANCE_CASES)))).toEqual({ tensors: 0, bytes: 0 });
    all.push(...results);
    expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(results).toHaveLength(KERNEL_CONFORMANCE_CASES.length);
  });
});

afterAll(() => {
  console.log(`\nHand-written kernels vs float64 (max abs error), Chromium:\n${formatConformanceTable(all)}\n`);
});
