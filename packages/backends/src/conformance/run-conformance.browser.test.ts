import { afterAll, describe, expect, it } from 'vitest';
import { defaultKernelThreads } from '@attnkit/kernels';
import { leaksOf } from '@attnkit/test-utils';
import { availableBackends } from '../available-backends.js';
import type { BackendCapabilities } from '../capabilities.js';
import { useBackend } from '../use-backend.js';
import { CONFORMANCE_CASES } from './conformance-cases.js';
import { formatConformanceTable } from './format-conformance-table.js';
import { KNOWN_KERNEL_GAPS } from './known-kernel-gaps.js';
import { runConformance, type ConformanceResult } from './run-conformance.js';

const all: ConformanceResult[] = [];
const reports: BackendCapabilities[] = [];

describe('conformance in Chromium', () => {
  it('offers cpu, wasm, webgl and (through SwiftShader) webgpu', async () => {
    expect(await availableBackends()).toEqual(['cpu', 'wasm', 'webgl', 'webgpu']);
  });

  it.each(['cpu', 'wasm', 'webgl', 'webgpu'] as const)('%s: every case within tolerance of float64, known gaps only, no leaks', async (backend) => {
    const caps = await useBackend(backend);
    reports.push(caps);
    expect(caps).toMatchObject({ backend, environment: 'browser', floatPrecision: 32 });
    let results: ConformanceResult[] = [];
    expect(await leaksOf(async () => (results = await runConformance()))).toEqual({ tensors: 0, bytes: 0 });
    all.push(...results);
    expect(results.filter((r) => r.status === 'fail' || r.status === 'error')).toEqual([]);
    const gaps = results.filter((r) => r.status === 'missing-kernel').map((r) => r.detail);
    expect(gaps).toEqual(KNOWN_KERNEL_GAPS[backend].map((k) => `no ${k} kernel`));
    expect(results.filter((r) => r.status === 'pass')).toHaveLength(CONFORMANCE_CASES.length - gaps.length);
  });

  it('wasm loads the threaded SIMD binary in a cross-origin-isolated page and uses every core', () => {
    const wasm = reports.find((r) => r.backend === 'wasm')?.wasm;
    expect(wasm).toMatchObject({ crossOriginIsolated: true, simd: true, threads: true, binary: 'tfjs-backend-wasm-threaded-simd.wasm' });
    expect(wasm?.threadCount).toBe(Math.min(8, Math.max(1, navigator.hardwareConcurrency - defaultKernelThreads()))); // the cores the kernel workers leave
    expect(Object.prototype.hasOwnProperty.call(navigator, 'hardwareConcurrency')).toBe(false);
  });

  it('webgl reports WebGL2 with renderable float32 textures and its texture limit', () => {
    const webgl = reports.find((r) => r.backend === 'webgl')?.webgl;
    expect(webgl).toMatchObject({ version: 2, renderFloat32: true });
    expect(webgl?.maxTextureSize).toBeGreaterThanOrEqual(4096);
  });
});

afterAll(() => {
  const threads = reports.find((r) => r.backend === 'wasm')?.wasm?.threadCount;
  console.log(`\nConformance vs float64 (max abs error), Chromium (wasm threads: ${threads}):\n${formatConformanceTable(all)}\n`);
  for (const r of reports) console.log(`${r.backend}: ${JSON.stringify({ ...r, missingKernels: undefined })}`);
});
