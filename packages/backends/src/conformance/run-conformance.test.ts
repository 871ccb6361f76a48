import { afterAll, describe, expect, it } from 'vitest';
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
