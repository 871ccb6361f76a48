// Test-only: Node 20 validates relaxed SIMD only with --experimental-wasm-relaxed-simd, so a test
// file of a relaxed kernel runs itself a second time in a child `node --experimental-wasm-relaxed-simd`
// vitest run, where the kernel must really run.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** Whether this process is that child run. */
export const IN_RELAXED_SIMD_CHILD = process.env['ATTNKIT_RELAXED_SIMD_CHILD'] === '1';

/**
 * Runs `file` (relative to the package root) in the child with the flag and expects it to pass
 * with exactly `tests` tests (so the tests that need the kernel did run there).
 */
export function expectPassesWithRelaxedSimd(file: string, tests: number): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const config = join(root, '..', '..', 'tooling', 'vitest-config', 'node.config.ts');
  const run = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', vitest, 'run', '--config', config, '--pool=threads', file], {
    cwd: root,
    env: { ...process.env, ATTNKIT_RELAXED_SIMD_CHILD: '1', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.status, output).toBe(0);
  expect(output).toMatch(new RegExp(`Tests\\s+${tests} passed \\(${tests}\\)`));
}
