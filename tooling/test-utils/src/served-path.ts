/**
 * Where a test reads a file next to its sources: the file path in Node, and in the browser the URL
 * Vite's dev server serves it at (files outside the root under `/@fs/`). Pass an absolute `file:`
 * URL made in the test itself (`new URL('../fixtures/x/', import.meta.url)`), since
 * `import.meta.url` is the caller's.
 *
 * @example
 * const folder = servedPath(new URL('../../../tooling/reference/fixtures/bert-mlm/', import.meta.url));
 */
export function servedPath(url: URL): string {
  if (typeof document === 'undefined') return decodeURIComponent(url.pathname); // no node:url in the browser
  return new URL(url.pathname.startsWith('/@fs/') ? url.pathname : `/@fs${url.pathname}`, location.origin).href;
}
