import { isAbsolute, resolve } from 'node:path';

/**
 * A path from the command line, resolved against the directory the user ran the command from.
 * Under `npm run demo` / `pnpm --filter @attnkit/demo start`, pnpm runs the CLI in apps/demo and
 * says where it was started in `INIT_CWD`; that directory is used only when this package's own
 * `start` script launched the CLI (a user's script that `cd`s elsewhere keeps its own directory).
 * Otherwise: the process's working directory. Absolute paths, URLs (`http(s):`, `blob:`, `data:`,
 * as the model loader reads them) and `''` are returned unchanged.
 *
 * @example
 * callerPath('out.json', { npm_lifecycle_event: 'start', npm_package_name: '@attnkit/demo', INIT_CWD: '/tmp/x' }); // '/tmp/x/out.json'
 */
export function callerPath(path: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (path === '' || isAbsolute(path) || /^(https?:|blob:|data:)/.test(path)) return path;
  const ownStartScript = env.npm_lifecycle_event === 'start' && env.npm_package_name === '@attnkit/demo';
  return resolve(ownStartScript && env.INIT_CWD ? env.INIT_CWD : cwd, path);
}
