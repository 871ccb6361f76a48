import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/** What `cachedFetch` uses of the Cache API (`globalThis.caches`). */
interface CacheStorageLike {
  open(cacheName: string): Promise<Pick<Cache, 'match' | 'put'>>;
}

/** The cache `cachedFetch()` uses when none is named. */
export const MODEL_CACHE_NAME = 'attnkit-models';

/** HTML pages are not cached: one where a model file should be means a wrong URL, not a file to keep. */
function cacheable(request: Request, response: Response): boolean {
  return request.method === 'GET' && response.ok && response.status !== 206 && response.body !== null && !/^text\/html\b/i.test(response.headers.get('content-type') ?? '');
}

/**
 * A `fetch` (same signature) that keeps the ok (2xx, not partial, not HTML) answers to GET requests
 * in the Cache API cache `cacheName` and answers later requests for the same URL from it, with no
 * network request: pass it as the `fetch` option of `loadEncoder`, `loadSentenceEncoder` or
 * `modelFiles`, and a model is downloaded once per browser, across page reloads. The response
 * streams as it downloads (progress still moves); it ends once the cache holds it. Errors, 404s and
 * other statuses pass through uncached, and a cache that cannot be opened or written (storage full,
 * private mode) is skipped, never an error. Where there is no Cache API (Node, an insecure
 * `http:` page), it is the plain `fetch`.
 *
 * A cached file is kept until the cache is deleted: `await caches.delete('attnkit-models')`. A
 * Hugging Face URL that names a branch (`resolve/main/`) can move on; name a commit to pin it.
 *
 * @example
 * const model = await loadSentenceEncoder('https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/', { fetch: cachedFetch() });
 */
export function cachedFetch(cacheName: string = MODEL_CACHE_NAME): typeof fetch {
  if (typeof cacheName !== 'string' || cacheName === '') throw new InvalidArgumentError({ caller: 'cachedFetch', argument: 'cacheName', expected: 'a non-empty string (a Cache API cache name)', received: describeValue(cacheName) });
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const storage = (globalThis as { caches?: CacheStorageLike }).caches;
    if (storage === undefined) return fetch(input, init);
    const request = new Request(input, init);
    let cache: Pick<Cache, 'match' | 'put'> | undefined;
    try {
      cache = await storage.open(cacheName);
    } catch {
      return fetch(request); // no usable cache here: the network as usual
    }
    const hit = request.method === 'GET' ? await cache.match(request).catch(() => undefined) : undefined;
    if (hit !== undefined) return hit;
    const response = await fetch(request);
    if (!cacheable(request, response)) return response;
    const [forCaller, forCache] = response.body!.tee();
    const head = { status: response.status, statusText: response.statusText, headers: response.headers };
    const stored = cache.put(request, new Response(forCache, head)).catch(() => undefined); // a full disk costs the cache, not the download
    // the caller's copy ends only once the cache holds the file: a reload right after a load finds it
    const ended = forCaller.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: () => stored }));
    return new Response(ended, head);
  };
}
