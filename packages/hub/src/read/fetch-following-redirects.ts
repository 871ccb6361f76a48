import { ModelLoadError } from '../model-load-error.js';

const MAX_REDIRECTS = 10;
const isNode = () => typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string' && typeof document === 'undefined';

/**
 * `fetcher(url)`, naming the URL in every failure, and (in Node, where redirects can be seen)
 * following only http(s) redirects, at most 10: a redirect to `file:` or `data:`, a loop, or a
 * network error is a `ModelLoadError` naming the file and the URL. Resolves with the final
 * response (any status); an aborted `signal` rejects with its reason.
 *
 * @example
 * const response = await fetchFollowingRedirects(new URL('config.json', base), 'config.json', { caller: 'loadEncoder', fetch });
 */
export async function fetchFollowingRedirects(url: URL, name: string, { caller, signal, fetch: fetcher }: { readonly caller: string; readonly signal?: AbortSignal | undefined; readonly fetch: typeof fetch }): Promise<Response> {
  const fail = (message: string, cause?: unknown): never => {
    throw new ModelLoadError(name, message, cause, caller);
  };
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response | undefined;
    try {
      response = await fetcher(current, { redirect: isNode() ? 'manual' : 'follow', ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      const cause = (error as { cause?: { message?: string; code?: string } }).cause;
      fail(`${name}: cannot fetch ${current.href} (${(error as Error).message}${cause?.code ?? cause?.message ? `: ${cause.code ?? cause.message}` : ''}; a network error, or a redirect the runtime refused).`, error);
    }
    const r = response as Response;
    if (r.status < 300 || r.status >= 400 || r.type === 'opaqueredirect') return r;
    const location = r.headers.get('location');
    if (location === null) return r;
    let next: URL | undefined;
    try {
      next = new URL(location, current);
    } catch (error) {
      fail(`${name}: ${current.href} redirects to ${JSON.stringify(location.slice(0, 200))}, which is not a URL.`, error);
    }
    const target = next as URL;
    if (target.protocol !== 'https:' && target.protocol !== 'http:') fail(`${name}: ${current.href} redirects to ${target.href.slice(0, 200)}; only http(s) redirects are followed.`);
    if (hop + 1 >= MAX_REDIRECTS) fail(`${name}: more than ${MAX_REDIRECTS} redirects from ${url.href} (last: ${target.href.slice(0, 200)}).`);
    current = target;
  }
}
