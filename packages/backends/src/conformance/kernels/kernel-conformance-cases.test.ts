import { afterAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../use-backend.js';
import type { ConformanceCase } from '../conformance-case.js';
import { formatConformanceTable } from '../format-conformance-table.js';
import { runConformance, type ConformanceResult } from '../run-conformance.js';
import { leaksOf } from '@attnkit/test-utils';
import { f32Kernels, int8Kernels } from '@attnkit/kernels';
import { KERNEL_CONFORMANCE_CASES } from './kernel-conformance-cases.js';

const all: ConformanceResult[] = [];
// Node 20 runs relaxed SIMD only with a flag: those cases must say so, and every other one pass
const unavailable = KERNEL_CONFORMANCE_CASES.filter((c) => (c.name.startsWith('int8MatMul relaxed-simd') && !int8Kernels().supported.includes('relaxed-simd')) || (c.name.startsWith('f32MatMul relaxed-simd') && !f32Kernels().supported.includes('relaxed-simd'))).map((c) => c.name);

describe.each(['cpu', 'wasm'] as const)('kernel conformance on %s (Node)', (backend) => {
  it('every available case within its float32 bound of float64, no leaks', async () => {
    await useBackend(backend);
    let results: ConformanceResult[] = [];
    expect(await leaksOf(async () => (results = await runConformance(KERNEL_CONFORMANCE_CASES)))).toEqual({ tensors: 0, bytes: 0 });
    all.push(...results);
    expect(results.filter((r) => r.status !== 'pass' && r.status !== 'unavailable')).toEqual([]);
    expect(results.filter((r) => r.status === 'unavailable').map((r) => r.case)).toEqual(unavailable);
    for (const r of results.filter((r) => r.status === 'unavailable')) expect(r.detail).toBe('no relaxed SIMD in this engine (Node 20: node --experimental-wasm-relaxed-simd)');
  });
});

describe('the kernel conformance suite can fail', () => {
  it('fails each case whose reference is moved by twice its tolerance at one element', async () => {
    await useBackend('cpu');
    const wrong = KERNEL_CONFORMANCE_CASES.map((c): ConformanceCase => ({ ...c, reference: () => c.reference().map((v, i) => (i === 3 ? v + 2 * c.tolerance[32] : v)) }));
    const results = await runConformance(wrong);
    expect(results.filter((r) => r.status !== 'unavailable').map((r) => r.status)).toEqual(Array(KERNEL_CONFORMANCE_CASES.length - unavailable.length).fill('fail'));
  });
});

afterAll(() => {
  console.log(`\nHand-written kernels vs float64 (max abs error), Node:\n${formatConformanceTable(all)}\n`);
  console.log(KERNEL_CONFORMANCE_CASES.map((c) => `${c.name}: tolerance ${c.tolerance[32].toExponential(2)}`).join('\n'));
});
