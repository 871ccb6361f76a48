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
  if (path === '' || isAbsolute(path) || isUrl(path)) return path;
  return resolve(cwd, path);
}

/**
 * Whether a command-line path is a URL the model loader fetches (`http(s):`, `blob:`, `data:`)
 * rather than a local path.
 *
 * @example
 * isUrl('https://huggingface.co/x/resolve/main'); // true
 * isUrl('./my-model'); // false
 */
export function isUrl(path: string): boolean {
  return /^(https?:|blob:|data:)/.test(path);
}
