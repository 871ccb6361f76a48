import type { ConformanceResult } from './run-conformance.js';

function cell(result: ConformanceResult | undefined): string {
  if (result === undefined) return '–';
  switch (result.status) {
    case 'pass':
      return `${result.maxAbsError.toExponential(1)} ok`;
    case 'fail':
      return `${result.maxAbsError.toExponential(1)} FAIL (> ${result.tolerance.toExponential(0)})`;
    case 'missing-kernel':
      return `gap: ${result.detail ?? ''}`;
    case 'unavailable':
      return `n/a: ${result.detail ?? ''}`;
    case 'error':
      return `ERROR: ${(result.detail ?? '').slice(0, 60)}`;
  }
}

/**
 * A markdown table with one row per case and one column per backend, each cell the max abs error
 * against float64 (or the gap / failure), so agreement reads at a glance.
 *
 * @example
 * console.log(formatConformanceTable([...await runOn('cpu'), ...await runOn('wasm')]));
 * // | case | cpu | wasm |
 * // | matMul [2,3,4,5]x[2,3,5,7] | 4.8e-7 ok | 4.8e-7 ok |
 */
export function formatConformanceTable(results: readonly ConformanceResult[]): string {
  const backends = [...new Set(results.map((r) => r.backend))];
  const cases = [...new Set(results.map((r) => r.case))];
  const lines = [`| case | ${backends.join(' | ')} |`, `| --- | ${backends.map(() => '---').join(' | ')} |`];
  for (const name of cases) {
    const cells = backends.map((b) => cell(results.find((r) => r.case === name && r.backend === b)));
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
