import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { parseReportArgs, runReport } from './report-command.js';

describe('attnkit report', () => {
  it('takes no arguments: anything else is the typed usage error pointing at --help', () => {
    expect(parseReportArgs([])).toBeUndefined();
    const error = thrown(() => parseReportArgs(['--json']));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("attnkit report: 'arguments' must be none; received Unknown option '--json'. Usage: attnkit report (attnkit report --help)");
  });

  it('prints the environment, each backend\'s capabilities and the conformance table, with no failures', async () => {
    const { text, failures } = await runReport();
    expect(text).toMatch(/^attnkit backend report \(node, Node \d+\.\d+\.\d+\)\navailable backends: cpu, wasm\n\ncpu: float32; missing kernels: /);
    expect(text).toContain('\nKernel conformance vs float64 (max abs error):\n| case | cpu | wasm |');
    expect(failures).toBe(0);
  });
});
