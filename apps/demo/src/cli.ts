import { env } from '@tensorflow/tfjs-core';
import { availableBackends, detectEnvironment } from '@attnkit/backends';
import { AttnkitError, InvalidArgumentError } from '@attnkit/errors';
import { backendReport } from './backend-report.js';
import { DEMO_USAGE, formatDemoReport, parseDemoArgs, runDemo } from './demo-command.js';
import { ENCODE_USAGE, parseEncodeArgs, runEncode } from './encode-command.js';

env().set('PROD', true); // no "install tfjs-node" banner (attnkit targets cpu and wasm in Node), no debug checks

async function report(): Promise<void> {
  const backends = await availableBackends();
  console.log(`attnkit backend report (${detectEnvironment()}, Node ${process.versions.node})`);
  console.log(`available backends: ${backends.join(', ')}\n`);
  const result = await backendReport(backends);
  for (const caps of result.capabilities) {
    const extra = caps.wasm === undefined ? '' : `, ${caps.wasm.binary}, ${caps.wasm.threadCount} thread(s)`;
    console.log(`${caps.backend}: float${caps.floatPrecision}${extra}; missing kernels: ${caps.missingKernels.join(', ') || 'none'}; filled: ${caps.filledKernels.join(', ') || 'none'}`);
  }
  console.log(`\nKernel conformance vs float64 (max abs error):\n${result.table}`);
  const bad = result.conformance.filter((r) => r.status === 'fail' || r.status === 'error');
  if (bad.length > 0) throw new Error(`${bad.length} conformance case(s) failed.`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'encode') {
    const request = parseEncodeArgs(rest);
    const result = await runEncode(request);
    if (request.output === undefined) console.log(JSON.stringify(result));
    else console.error(`attnkit encode: ${result.last_hidden_state.length} sequence(s) on ${result.backend}, load ${result.timings_ms.load} ms, forward ${result.timings_ms.forward} ms -> ${request.output}`);
    return;
  }
  if (command === 'report') return report();
  if (command === undefined || command.startsWith('--')) {
    const request = parseDemoArgs(argv);
    const progress = process.stderr.isTTY
      ? (p: { file: string; loaded: number; total: number | undefined }) => process.stderr.write(`\rloading ${p.file} ${p.total ? `${Math.round((100 * p.loaded) / p.total)}%` : `${p.loaded} bytes`}   ${p.loaded === p.total ? '\n' : ''}`)
      : undefined;
    const result = await runDemo(request, progress);
    console.log(request.json ? JSON.stringify(result) : formatDemoReport(result));
    return;
  }
  throw new InvalidArgumentError({ caller: 'attnkit', argument: 'command', expected: 'none (the demo), encode or report', received: `'${command.slice(0, 40)}'`, hint: `\n  ${DEMO_USAGE}\n  ${ENCODE_USAGE}` }); // a usage mistake: exit code 2
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(message.startsWith('attnkit') ? message : `attnkit: ${message}`); // messages of the CLI itself already name it
  process.exitCode = error instanceof AttnkitError ? 2 : 1;
});
