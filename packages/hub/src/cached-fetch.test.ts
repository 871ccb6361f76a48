import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { cachedFetch, MODEL_CACHE_NAME } from './cached-fetch.js';
import { modelFiles } from './model-files.js';

afterEach(() => vi.unstubAllGlobals());

/** A Cache API stand-in: stores each put response's bytes by URL, answers matches with a fresh Response. */
function fakeCaches(options: { failOpen?: boolean; failPut?: boolean } = {}) {
  const stored = new Map<string, { bytes: ArrayBuffer; status: number; headers: Headers }>();
  const opened: string[] = [];
  const cache = {
    match: vi.fn(async (request: Request) => {
      const hit = stored.get(request.url);
      return hit === undefined ? undefined : new Response(hit.bytes.slice(0), { status: hit.status, headers: hit.headers });
    }),
    put: vi.fn(async (request: Request, response: Response) => {
      const bytes = await response.arrayBuffer(); // reads the whole body, as the Cache API does
      if (options.failPut === true) throw new DOMException('quota exceeded', 'QuotaExceededError');
      stored.set(request.url, { bytes, status: response.status, headers: response.headers });
    }),
  };
  const caches = {
    open: vi.fn(async (name: string) => {
      if (options.failOpen === true) throw new DOMException('no storage here', 'SecurityError');
      opened.push(name);
      return cache;
    }),
  };
  return { caches, cache, stored, opened };
}

/** A network stand-in: `/missing` 404s, `/page` is an HTML page, every other path answers its own path. */
function fakeNetwork() {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/missing')) return new Response('not here', { status: 404 });
    if (url.pathname.endsWith('/page')) return new Response('<html></html>', { headers: { 'content-type': 'text/html' } });
    return new Response(`bytes of ${url.pathname}`, { headers: { 'content-type': 'application/octet-stream' } });
  });
}

describe('cachedFetch', () => {
  it('without a Cache API (Node) is the plain fetch', async () => {
    const network = fakeNetwork();
    vi.stubGlobal('fetch', network);
    vi.stubGlobal('caches', undefined);
    const fetch = cachedFetch();
    expect(await (await fetch('https://models.example/m/config.json')).text()).toBe('bytes of /m/config.json');
    expect(await (await fetch('https://models.example/m/config.json')).text()).toBe('bytes of /m/config.json');
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('keeps an ok answer in the named cache and answers the same URL from it, with no second request', async () => {
    const network = fakeNetwork();
    const { caches, stored, opened } = fakeCaches();
    vi.stubGlobal('fetch', network);
    vi.stubGlobal('caches', caches);
    const fetch = cachedFetch('my-models');
    const first = await fetch(new URL('https://models.example/m/model.safetensors'));
    expect(await first.text()).toBe('bytes of /m/model.safetensors');
    expect([...stored.keys()]).toEqual(['https://models.example/m/model.safetensors']); // stored by the time the body ended
    const second = await fetch('https://models.example/m/model.safetensors');
    expect(await second.text()).toBe('bytes of /m/model.safetensors');
    expect(network).toHaveBeenCalledTimes(1);
    expect(opened).toEqual(['my-models', 'my-models']);
    expect(cachedFetch.length).toBe(0); // the cache name is optional
    expect(MODEL_CACHE_NAME).toBe('attnkit-models');
  });

  it('does not keep a 404, an HTML page or a POST: each is asked again', async () => {
    const network = fakeNetwork();
    const { caches, stored } = fakeCaches();
    vi.stubGlobal('fetch', network);
    vi.stubGlobal('caches', caches);
    const fetch = cachedFetch();
    for (let i = 0; i < 2; i++) {
      expect((await fetch('https://models.example/m/missing')).status).toBe(404);
      expect(await (await fetch('https://models.example/m/page')).text()).toBe('<html></html>');
      await fetch('https://models.example/m/config.json', { method: 'POST', body: '{}' });
    }
    expect(network).toHaveBeenCalledTimes(6);
    expect(stored.size).toBe(0);
  });

  it('a cache that cannot be opened or written costs the cache, never the download', async () => {
    const network = fakeNetwork();
    vi.stubGlobal('fetch', network);
    vi.stubGlobal('caches', fakeCaches({ failOpen: true }).caches);
    expect(await (await cachedFetch()('https://models.example/m/a')).text()).toBe('bytes of /m/a');
    const full = fakeCaches({ failPut: true });
    vi.stubGlobal('caches', full.caches);
    expect(await (await cachedFetch()('https://models.example/m/b')).text()).toBe('bytes of /m/b');
    expect(full.cache.put).toHaveBeenCalledTimes(1);
    expect(full.stored.size).toBe(0);
  });

  it('as the fetch of modelFiles: progress still streams, and a second load (a page reload) reads from the cache', async () => {
    const network = fakeNetwork();
    const { caches } = fakeCaches();
    vi.stubGlobal('fetch', network);
    vi.stubGlobal('caches', caches);
    const progress: number[] = [];
    const load = () => modelFiles('https://models.example/m/', { fetch: cachedFetch(), onProgress: (p) => progress.push(p.loaded) }); // a new reader: nothing read yet
    expect(new TextDecoder().decode(await load().read('tokenizer.json'))).toBe('bytes of /m/tokenizer.json');
    expect(new TextDecoder().decode(await load().read('tokenizer.json'))).toBe('bytes of /m/tokenizer.json');
    expect(network).toHaveBeenCalledTimes(1);
    expect(progress.at(-1)).toBe('bytes of /m/tokenizer.json'.length);
  });

  it('refuses a cache name that is not a non-empty string', () => {
    expect(() => cachedFetch('')).toThrow(InvalidArgumentError);
    expect(() => cachedFetch(42 as never)).toThrow("cachedFetch: 'cacheName' must be a non-empty string (a Cache API cache name); received number 42.");
  });
});
