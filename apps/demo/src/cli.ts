import { env } from '@tensorflow/tfjs-core';
import { availableBackends, detectEnvironment } from '@attnkit/backends';
import { backendReport } from './backend-report.js';

env().set('PROD', true); // no "install tfjs-node" banner (attnkit targets cpu and wasm in Node), no debug checks

const backends = await availableBackends();
console.log(`attnkit backend report (${detectEnvironment()}, Node ${process.versions.node})`);
console.log(`available backends: ${backends.join(', ')}\n`);
const report = await backendReport(backends);
for (const caps of report.capabilities) {
  const extra = caps.wasm === undefined ? '' : `, ${caps.wasm.binary}, ${caps.wasm.threadCount} thread(s)`;
  console.log(`${caps.backend}: float${caps.floatPrecision}${extra}; missing kernels: ${caps.missingKernels.join(', ') || 'none'}`);
}
console.log(`\nKernel conformance vs float64 (max abs error):\n${report.table}`);
const bad = report.conformance.filter((r) => r.status === 'fail' || r.status === 'error');
if (bad.length > 0) {
  console.error(`\n${bad.length} conformance case(s) failed.`);
  process.exitCode = 1;
}
