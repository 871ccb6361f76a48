import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CASES } from '@attnkit/backends/conformance';
import { backendReport } from './backend-report.js';

describe('backendReport', () => {
  it('reports cpu and wasm with one table column each and every case', async () => {
    const report = await backendReport(['cpu', 'wasm']);
    expect(report.capabilities.map((c) => c.backend)).toEqual(['cpu', 'wasm']);
    expect(report.conformance).toHaveLength(2 * CONFORMANCE_CASES.length);
    expect(report.table.split('\n')[0]).toBe('| case | cpu | wasm |');
    expect(report.table.split('\n')).toHaveLength(2 + CONFORMANCE_CASES.length);
    expect(report.conformance.filter((r) => r.status === 'fail' || r.status === 'error')).toEqual([]);
  });
});
