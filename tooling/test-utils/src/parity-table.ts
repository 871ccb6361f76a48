/** The parts of a `compareBackends` report a parity table needs. */
export interface ParityReport {
  readonly results: ReadonlyArray<{ readonly backend: string; readonly outputs: ReadonlyArray<{ readonly maxAbsDiff: number }> }>;
}

/**
 * Collects `compareBackends` reports into a markdown table (one row per case, one column per
 * backend, each cell the max abs difference per output) and prints it once, at the end.
 *
 * @example
 * const table = new ParityTable('scorers vs PyTorch');
 * table.add('dot [2,3,4,5]', report); afterAll(() => table.print());
 */
export class ParityTable {
  readonly #rows: Array<[string, ParityReport]> = [];

  constructor(readonly title: string) {}

  add(name: string, report: ParityReport): void {
    this.#rows.push([name, report]);
  }

  toString(): string {
    const backends = [...new Set(this.#rows.flatMap(([, r]) => r.results.map((b) => b.backend)))];
    const cell = (report: ParityReport, backend: string): string =>
      report.results.find((r) => r.backend === backend)?.outputs.map((o) => o.maxAbsDiff.toExponential(1)).join(' / ') ?? '–';
    return [
      `${this.title} (max abs difference):`,
      `| case | ${backends.join(' | ')} |`,
      `| --- |${backends.map(() => ' --- |').join('')}`,
      ...this.#rows.map(([name, report]) => `| ${name} | ${backends.map((b) => cell(report, b)).join(' | ')} |`),
    ].join('\n');
  }

  print(): void {
    console.log(`\n${this.toString()}\n`);
  }
}
