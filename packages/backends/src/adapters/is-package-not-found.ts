/** Codes Node gives a failed `import()` (ESM) or `require` / `require.resolve` (CommonJS, webpack). */
const NOT_FOUND_CODES: ReadonlySet<unknown> = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `error` says that `packageName` itself (or a file of it, `<packageName>/...`) cannot be
 * found — and not that something else failed while loading it. Recognised:
 *
 * - Node and Vitest: code `ERR_MODULE_NOT_FOUND` or `MODULE_NOT_FOUND` with
 *   `Cannot find package '<name>'` / `Cannot find module '<name>'`;
 * - Vite and esbuild bundles, which replace a missing optional peer dependency by a module that
 *   throws `Could not resolve "<name>" imported by "..."`.
 *
 * A missing dependency *of* the package (`Cannot find package 'seedrandom'`), a broken file inside
 * it, or a syntax error all return `false`, so they reach the caller unchanged.
 *
 * @example
 * isPackageNotFound(await import('@tensorflow/tfjs-backend-wasm').catch((e) => e), '@tensorflow/tfjs-backend-wasm');
 */
export function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error)) return false;
  const specifier = `${escapeRegExp(packageName)}(?:/[^'"]*)?`;
  const code = (error as { code?: unknown }).code;
  if (NOT_FOUND_CODES.has(code) && new RegExp(`Cannot find (?:package|module) ['"]${specifier}['"]`).test(error.message)) return true;
  return new RegExp(`Could not resolve "${specifier}"`).test(error.message);
}
