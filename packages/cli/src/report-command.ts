import { parseArgs } from 'node:util';
import { availableBackends, detectEnvironment } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { backendReport } from './backend-report.js';
import { EXIT_CODES, type CommandHelp } from './command-help.js';

export const REPORT_USAGE = 'attnkit report';

/** `attnkit report --help`. */
export const REPORT_HELP: CommandHelp = {
  usage: REPORT_USAGE,
  summary: "Brings up every backend this machine offers (cpu and wasm in Node), prints each one's capabilities (float precision, wasm binary and threads, missing and filled kernels) and the kernel conformance table (max abs error against float64). Exits 1 if a conformance case fails.",
  options: [{ flag: '-h, --help', description: 'print this help' }],
  examples: ['attnkit report', 'attnkit report > conformance.md'],
  notes: [EXIT_CODES],
};

/**
 * Parses `attnkit report` arguments: it takes none, so anything else is a typed usage error.
 *
 * @example
 * parseReportArgs([]);
 */
export function parseReportArgs(argv: readonly string[]): void {
  try {
    parseArgs({ args: [...argv], options: {}, strict: true });
  } catch (error) {
    throw new InvalidArgumentError({ caller: 'attnkit report', argument: 'arguments', expected: 'none', received: (error as Error).message, hint: `Usage: ${REPORT_USAGE} (attnkit report --help)` });
  }
}

/**
 * The backend report as a person reads it, and how many conformance cases failed or errored.
 *
 * @example
 * const { text, failures } = await runReport();
 */
export async function runReport(): Promise<{ text: string; failures: number }> {
  const backends = await availableBackends();
  const result = await backendReport(backends);
  const lines = [`attnkit backend report (${detectEnvironment()}, Node ${process.versions.node})`, `available backends: ${backends.join(', ')}`, ''];
  for (const caps of result.capabilities) {
    const extra = caps.wasm === undefined ? '' : `, ${caps.wasm.binary}, ${caps.wasm.threadCount} thread(s)`;
    lines.push(`${caps.backend}: float${caps.floatPrecision}${extra}; missing kernels: ${caps.missingKernels.join(', ') || 'none'}; filled: ${caps.filledKernels.join(', ') || 'none'}`);
  }
  lines.push('', `Kernel conformance vs float64 (max abs error):\n${result.table}`);
  return { text: lines.join('\n'), failures: result.conformance.filter((r) => r.status === 'fail' || r.status === 'error').length };
}
