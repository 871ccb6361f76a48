import { isAbsolute, resolve } from 'node:path';

/**
 * A path from the command line, resolved against the directory the user ran the command from (the
 * process's working directory: `npx attnkit` and `npm run demo` both run the command there).
 * Absolute paths, URLs (`http(s):`, `blob:`, `data:`, as the model loader reads them) and `''` are
 * returned unchanged.
 *
 * @example
 * callerPath('out.json', '/tmp/x'); // '/tmp/x/out.json'
 */
export function callerPath(path: string, cwd: string = process.cwd()): string {
  if (path === '' || isAbsolute(path) || /^(https?:|blob:|data:)/.test(path)) return path;
  return resolve(cwd, path);
}
