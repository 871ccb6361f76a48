// How the benches start a Node engine: attnkit as an installed package runs, from its built dist/ (tsc's
// output), never from the TypeScript sources. tsx compiles sources with esbuild's keepNames, which wraps
// every function made at run time in a `__name()` call (an Object.defineProperty): in a decoding step's
// hundreds of small calls that alone measured about 1 ms of a 19 ms SmolLM-shaped int8 step (Node,
// 2-core Intel Xeon). Only the bench's own harness files go through tsx.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { staleBuild } from '../../scripts/stale-build.mjs';
import { benchDir, rootDir } from './peer/paths.js';

/** The packages a Node engine imports. */
const ENGINE_PACKAGES = ['@attnkit/backends', '@attnkit/hub', '@attnkit/kernels', '@attnkit/models', '@attnkit/sentence', '@attnkit/tokenizers'];
let built = false;

/** Builds the bench's workspace dependencies (turbo: cached when current) once per run, then checks every engine package's dist is current. */
export function ensureBuiltPackages(): void {
  if (built) return;
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@attnkit/bench^...', '--output-logs=errors-only'], { cwd: rootDir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } });
  for (const name of ENGINE_PACKAGES) {
    const stale = staleBuild(rootDir, name);
    if (stale !== undefined) throw new Error(`bench: ${name}'s build is not current after pnpm build (${stale})`);
  }
  built = true;
}

/** The command and arguments that run `script` (a harness file under src/) in a fresh Node process on the built packages. */
export function nodeEngineCommand(script: string, args: readonly string[]): [string, string[]] {
  ensureBuiltPackages();
  return [join(benchDir, 'node_modules', '.bin', 'tsx'), [join(benchDir, 'src', script), ...args]];
}
