import { describe, expect, it } from 'vitest';
import { formatConformanceTable } from './format-conformance-table.js';

describe('formatConformanceTable', () => {
  it('puts cases in rows and backends in columns, with gaps and failures spelled out', () => {
    const table = formatConformanceTable([
      { case: 'softmax', backend: 'cpu', status: 'pass', maxAbsError: 6e-8, tolerance: 1e-6 },
      { case: 'softmax', backend: 'wasm', status: 'fail', maxAbsError: 2e-5, tolerance: 1e-6 },
      { case: 'einsum', backend: 'wasm', status: 'missing-kernel', maxAbsError: NaN, tolerance: 1e-5, detail: 'no Einsum kernel' },
      { case: 'relaxed', backend: 'cpu', status: 'unavailable', maxAbsError: NaN, tolerance: 1e-6, detail: 'no relaxed SIMD here' },
    ]);
    expect(table.split('\n')).toEqual([
      '| case | cpu | wasm |',
      '| --- | --- | --- |',
      '| softmax | 6.0e-8 ok | 2.0e-5 FAIL (> 1e-6) |',
      '| einsum | – | gap: no Einsum kernel |',
      '| relaxed | n/a: no relaxed SIMD here | – |',
    ]);
  });
});
