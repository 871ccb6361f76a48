import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { formatConformanceTable, runConformance, type ConformanceResult } from '@attnkit/backends/conformance';
import { leaksOf } from '@attnkit/test-utils';
import { f32Kernels } from '../f32-kernels.js';
import { int8Kernels } from '../int8-kernels.js';
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
