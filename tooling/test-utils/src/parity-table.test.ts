import { describe, expect, it } from 'vitest';
import { ParityTable } from './parity-table.js';

describe('ParityTable', () => {
  it('lays cases out in rows and backends in columns, outputs separated by /', () => {
    const table = new ParityTable('t');
    table.add('a', { results: [{ backend: 'cpu', outputs: [{ maxAbsDiff: 1e-7 }] }, { backend: 'wasm', outputs: [{ maxAbsDiff: 0 }] }] });
    table.add('b', { results: [{ backend: 'wasm', outputs: [{ maxAbsDiff: 2e-6 }, { maxAbsDiff: 3e-7 }] }] });
    expect(table.toString().split('\n')).toEqual([
      't (max abs difference):',
      '| case | cpu | wasm |',
      '| --- | --- | --- |',
      '| a | 1.0e-7 | 0.0e+0 |',
      '| b | – | 2.0e-6 / 3.0e-7 |',
    ]);
  });
});
