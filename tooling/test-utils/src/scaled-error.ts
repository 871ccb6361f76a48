import type { ParityReport } from './parity-table.js';

/**
 * The error of every output of every backend in a `compareBackends` report, relative to the scale
 * of the reference: `max |actual - expected| / max |expected|` (a gradient's entries can be near 0,
 * where an element-wise relative error means nothing). Returns `[backend, output, error]` rows.
 *
 * @example
 * for (const [backend, output, error] of scaledErrors(report, reference)) expect(error, `${backend} ${output}`).toBeLessThan(1e-5);
 */
export function scaledErrors(
  report: ParityReport & { readonly results: ReadonlyArray<{ readonly backend: string; readonly outputs: ReadonlyArray<{ readonly output: string; readonly maxAbsDiff: number }> }> },
  reference: Readonly<Record<string, ArrayLike<number>>>,
): Array<[string, string, number]> {
  const rows: Array<[string, string, number]> = [];
  for (const { backend, outputs } of report.results) {
    for (const { output, maxAbsDiff } of outputs) {
      const expected = reference[output];
      if (expected === undefined) throw new Error(`no reference for output '${output}'`);
      let scale = 0;
      for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i] as number));
      rows.push([backend, output, scale === 0 ? maxAbsDiff : maxAbsDiff / scale]);
    }
  }
  return rows;
}
