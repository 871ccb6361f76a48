import { availableBackends } from '@attnkit/backends';
import { detectEnvironment } from '@attnkit/errors';
import { backendReport } from './backend-report.js';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { parseCommandLine } from './command-line/parse-command-line.js';

/** `attnkit report`. */
export const REPORT_COMMAND = defineCommand({
  name: 'report',
  purpose: 'the backends this machine offers, their capabilities and the kernel conformance table',
  usage: 'attnkit report',
  summary: "Brings up every backend this machine offers (cpu and wasm in Node), prints each one's capabilities (float precision, wasm binary and threads, missing and filled kernels) and the kernel conformance table (max abs error against float64). Exits 1 if a conformance case fails.",
  options: {},
  examples: ['attnkit report', 'attnkit report > conformance.md'],
  notes: [EXIT_CODES],
});

/**
 * Parses `attnkit report` arguments: it takes none, so anything else is a typed usage error.
 *
 * @example
 * parseReportArgs([]);
 */
export function parseReportArgs(argv: readonly string[]): void {
  parseCommandLine(REPORT_COMMAND, argv);
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
