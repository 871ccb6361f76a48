import type { CatalogueBackend, CatalogueCase } from '../catalogue/catalogue-case.js';

/**
 * The runs of `cases` in an environment that has `available` backends: a case declaring `backends`
 * runs once on each of them found here (none, if none is), any other case once on cpu.
 *
 * @example
 * planRuns([{ ...masksCase, backends: ['cpu', 'wasm', 'webgl'] }], ['cpu', 'wasm']); // on cpu, then on wasm
 */
export function planRuns(cases: readonly CatalogueCase[], available: readonly CatalogueBackend[]): Array<{ case: CatalogueCase; backend: CatalogueBackend }> {
  return cases.flatMap((testCase) => (testCase.backends ?? ['cpu']).filter((backend) => available.includes(backend)).map((backend) => ({ case: testCase, backend })));
}
