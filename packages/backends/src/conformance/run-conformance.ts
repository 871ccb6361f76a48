import { engine, getKernel, tidy } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '../assert-backend-ready.js';
import { describeBackend } from '../describe-backend.js';
import { maxDifference } from '../max-difference.js';
import type { ConformanceCase } from './conformance-case.js';
import { CONFORMANCE_CASES } from './conformance-cases.js';

/** How one case went on one backend. */
export interface ConformanceResult {
  readonly case: string;
  readonly backend: string;
  /**
   * `missing-kernel`: the backend has no kernel for it (a gap, see `detail`); `unavailable`: the
   * engine cannot run it (`detail` says why; see `ConformanceCase.available`); `error`: it threw.
   */
  readonly status: 'pass' | 'fail' | 'missing-kernel' | 'unavailable' | 'error';
  readonly maxAbsError: number;
  readonly tolerance: number;
  readonly detail?: string;
}

async function runCase(testCase: ConformanceCase, backend: string, precision: 16 | 32): Promise<ConformanceResult> {
  const tolerance = testCase.tolerance[precision];
  const base = { case: testCase.name, backend, tolerance };
  const unavailable = testCase.available?.();
  if (unavailable !== undefined) return { ...base, status: 'unavailable', maxAbsError: NaN, detail: unavailable };
  const missing = testCase.kernels.filter((kernel) => getKernel(kernel, backend) === undefined);
  if (missing.length > 0) {
    return { ...base, status: 'missing-kernel', maxAbsError: NaN, detail: `no ${missing.join(', ')} kernel` };
  }
  try {
    const output = tidy(() => testCase.compute());
    const values = await output.data();
    output.dispose();
    const { maxAbsDiff } = maxDifference(values, testCase.reference(), testCase.name);
    return { ...base, status: maxAbsDiff <= tolerance ? 'pass' : 'fail', maxAbsError: maxAbsDiff };
  } catch (error) {
    return { ...base, status: 'error', maxAbsError: NaN, detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Runs the conformance cases on the active backend, comparing each with float64 at the tolerance
 * of the backend's real float precision. Leaves no tensors behind.
 *
 * @example
 * await useBackend('wasm');
 * const results = await runConformance();
 * results.filter((r) => r.status !== 'pass'); // [{ case: "einsum ...", status: 'missing-kernel', ... }]
 */
export async function runConformance(cases: readonly ConformanceCase[] = CONFORMANCE_CASES): Promise<ConformanceResult[]> {
  assertBackendReady('runConformance');
  const { floatPrecision } = await describeBackend();
  const backend = engine().backendName;
  const results: ConformanceResult[] = [];
  for (const testCase of cases) results.push(await runCase(testCase, backend, floatPrecision));
  return results;
}
