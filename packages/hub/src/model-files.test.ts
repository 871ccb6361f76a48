import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelLoadError } from './model-load-error.js';
import { modelFiles } from './model-files.js';

afterEach(() => vi.unstubAllGlobals());

describe('modelFiles', () => {
  it('reads files from a record (browser uploads), undefined for a missing one', async () => {
    const files = modelFiles({ files: { 'config.json': '{"a":1}', 'model.safetensors': new Uint8Array([1, 2]) } });
    expect(new TextDecoder().decode(await files.read('config.json'))).toBe('{"a":1}');
    expect(Array.from((await files.read('model.safetensors'))!)).toEqual([1, 2]);
    expect(await files.read('vocab.txt')).toBeUndefined();
  });

  it('fetches URLs relative to the folder, streaming progress, 404 = missing, other errors typed', async () => {
    const fetch = vi.fn(async (url: URL) => {
      if (url.href.endsWith('config.json')) return new Response('{"x":2}', { headers: { 'content-length': '7' } });
      if (url.href.endsWith('broken.bin')) return new Response('nope', { status: 500 });
      return new Response(null, { status: 404 });
    });
    vi.stubGlobal('fetch', fetch);
    const progress: number[] = [];
    const files = modelFiles('https://models.example/tiny', (p) => progress.push(p.loaded));
    expect(new TextDecoder().decode(await files.read('config.json'))).toBe('{"x":2}');
    expect(fetch.mock.calls[0]?.[0].href).toBe('https://models.example/tiny/config.json');
    expect(progress.at(-1)).toBe(7);
    expect(await files.read('vocab.txt')).toBeUndefined();
    await expect(files.read('broken.bin')).rejects.toThrow(ModelLoadError);
  });
});

describe('subfolderSource', () => {
  it('keeps a folder path, a URL and a file set inside the model folder', async () => {
    const { subfolderSource } = await import('./subfolder-source.js');
    expect(subfolderSource('/models/st', '1_Pooling')).toBe('/models/st/1_Pooling');
    expect(String(subfolderSource(new URL('https://example.org/m/st'), '2_Dense/'))).toBe('https://example.org/m/st/2_Dense/');
    expect(subfolderSource({ files: { 'config.json': '{}', '1_Pooling/config.json': '{"a":1}' } }, '1_Pooling')).toEqual({ files: { 'config.json': '{"a":1}' } });
    expect(subfolderSource('/models/st', '')).toBe('/models/st');
  });

  it.each(['../x', '/etc', 'a/../../b', 'https://evil.example/x', 'a\\b', '.', '%2e%2e'])('refuses the path %j with a ModelLoadError', async (path) => {
    const { subfolderSource } = await import('./subfolder-source.js');
    expect(() => subfolderSource('/models/st', path)).toThrow(/must be a relative folder inside the model folder/);
  });

  it('refuses a model file that is not a regular file (a link to /dev/zero, a pipe, a folder) instead of reading forever', async () => {
    const { mkdtempSync, mkdirSync, symlinkSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { execFileSync } = await import('node:child_process');
    const folder = mkdtempSync(join(tmpdir(), 'attnkit-special-files-'));
    symlinkSync('/dev/zero', join(folder, 'config.json'));
    execFileSync('mkfifo', [join(folder, 'tokenizer.json')]);
    mkdirSync(join(folder, 'model.safetensors'));
    const files = modelFiles(folder);
    await expect(files.read('config.json')).rejects.toThrow(/config\.json is not a regular file \(a device, pipe or socket\); a model file must be one\.$/);
    await expect(files.read('tokenizer.json')).rejects.toThrow(/tokenizer\.json is not a regular file \(a device, pipe or socket\)/);
    await expect(files.read('model.safetensors')).rejects.toThrow(/model\.safetensors is not a regular file \(a folder\)/);
  });
});

describe('modelFiles: an HTML page where a required file should be', () => {
  const page = '<!doctype html><html><body>My app</body></html>';
  const site = (contentType: string) => (async (url: URL) => (url.pathname.endsWith('.json') || url.pathname.endsWith('.safetensors') ? new Response(page, { headers: { 'content-type': contentType } }) : new Response(null, { status: 404 }))) as unknown as typeof fetch; // modelFiles passes URLs

  it('is a ModelLoadError naming the URL when the file is required, a missing file when it is optional', async () => {
    const files = modelFiles('https://example.org/app', { caller: 'loadEncoder', fetch: site('text/html; charset=utf-8') });
    const error = await files.read('config.json', { required: true }).catch((e: unknown) => e as ModelLoadError);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as ModelLoadError).file).toBe('config.json');
    expect((error as Error).message).toBe("loadEncoder: config.json at https://example.org/app/config.json is an HTML page, not JSON: is https://example.org/app/ the model folder's URL? A Hugging Face model's files are at https://huggingface.co/<id>/resolve/main/.");
    await expect(files.read('model.safetensors', { required: true })).rejects.toThrow(/model\.safetensors at https:\/\/example\.org\/app\/model\.safetensors is an HTML page, not the model file: is/);
    expect(await files.read('modules.json')).toBeUndefined(); // optional: a single-page app answers every path with its page
  });

  it('recognises the page by its first byte when the server does not say text/html (a .json file never starts with <)', async () => {
    const files = modelFiles('https://example.org/app/', { fetch: site('application/octet-stream') });
    await expect(files.read('config.json', { required: true })).rejects.toThrow(/config\.json at https:\/\/example\.org\/app\/config\.json is an HTML page, not JSON/);
    expect(new TextDecoder().decode(await files.read('modules.json'))).toBe(page); // optional files are returned as they are
  });
});

describe('modelFiles: the fetch option', () => {
  it('fetches every URL with the given function, never the global fetch', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new Error('the global fetch was called'); }));
    const mine = vi.fn(async (_url: URL, _init?: RequestInit) => new Response('{"x":1}'));
    const files = modelFiles('https://models.example/tiny/', { fetch: mine as typeof fetch });
    expect(new TextDecoder().decode(await files.read('config.json'))).toBe('{"x":1}');
    expect(mine.mock.calls.map(([url]) => String(url))).toEqual(['https://models.example/tiny/config.json']);
  });

  it('refuses a fetch that is not a function, naming the caller and what it received', () => {
    expect(() => modelFiles('https://models.example/tiny/', { caller: 'loadEncoder', fetch: 'https://proxy' as never })).toThrow("loadEncoder: 'fetch' must be a function with the signature of the global fetch (such as cachedFetch()); received string 'https://proxy'.");
  });
});

describe('ModelFiles: one reader per folder, each file read once', () => {
  const counting = () => {
    const asked: string[] = [];
    const fetch = vi.fn(async (url: URL) => {
      asked.push(url.pathname);
      if (url.pathname.endsWith('/missing.json')) return new Response(null, { status: 404 });
      return new Response(`{"path":"${url.pathname}"}`);
    });
    return { asked, fetch: fetch as unknown as typeof globalThis.fetch };
  };

  it('reads a file once however often, and through whichever view, it is asked for', async () => {
    const { asked, fetch } = counting();
    const files = modelFiles('https://models.example/m/', { fetch, caller: 'loadSentenceEncoder' });
    const encoderView = modelFiles(files, { caller: 'loadEncoder' }); // what a loader given the reader opens
    const [a, b, c] = await Promise.all([files.read('config.json'), encoderView.read('config.json'), files.json('config.json')]);
    expect(new TextDecoder().decode(a)).toBe('{"path":"/m/config.json"}');
    expect(b).toBe(a);
    expect(c).toEqual({ path: '/m/config.json' });
    expect(encoderView.caller).toBe('loadEncoder');
    expect(await files.read('missing.json')).toBeUndefined();
    expect(await encoderView.read('missing.json')).toBeUndefined();
    expect(asked).toEqual(['/m/config.json', '/m/missing.json']);
  });

  it('shares what it read with its subfolders: 1_Pooling/config.json is one file, whether read from the top or inside', async () => {
    const { asked, fetch } = counting();
    const files = modelFiles('https://models.example/m/', { fetch });
    const pooling = files.subfolder('1_Pooling/');
    expect(pooling.prefix).toBe('1_Pooling/');
    expect(String(pooling.source)).toBe('https://models.example/m/1_Pooling/');
    await pooling.read('config.json');
    await files.read('1_Pooling/config.json');
    await files.subfolder('1_Pooling').read('config.json');
    expect(asked).toEqual(['/m/1_Pooling/config.json']);
    expect(files.subfolder('')).toBe(files);
  });

  it('asks again after a failed read, and for a required file after an optional read found an HTML page', async () => {
    let calls = 0;
    const flaky = (async () => (++calls === 1 ? new Response('busy', { status: 503 }) : new Response('{}'))) as unknown as typeof globalThis.fetch;
    const files = modelFiles('https://models.example/m/', { fetch: flaky });
    await expect(files.read('config.json')).rejects.toThrow(ModelLoadError);
    expect(new TextDecoder().decode(await files.read('config.json'))).toBe('{}');
    const page = (async () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } })) as unknown as typeof globalThis.fetch;
    const app = modelFiles('https://example.org/app/', { fetch: page });
    expect(await app.read('config.json')).toBeUndefined();
    await expect(app.read('config.json', { required: true })).rejects.toThrow(/is an HTML page, not JSON/);
  });

  it('a view with an aborted signal rejects with its reason, even for a file already read', async () => {
    const { fetch } = counting();
    const files = modelFiles('https://models.example/m/', { fetch });
    await files.read('config.json');
    const controller = new AbortController();
    controller.abort();
    await expect(modelFiles(files, { signal: controller.signal }).read('config.json')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('names a file that is not valid JSON, and refuses bad options and a bad subfolder', async () => {
    const files = modelFiles({ files: { 'config.json': '{"a":' } }, { caller: 'loadEncoder' });
    await expect(files.json('config.json')).rejects.toThrow(/^loadEncoder: config\.json in the given files is not valid JSON \(/);
    expect(() => modelFiles('./m', { onProgress: 'log' } as never)).toThrow("modelFiles: 'onProgress' must be a function; received string 'log'.");
    expect(() => modelFiles('./m', { signal: true } as never)).toThrow(/^modelFiles: 'signal' must be an AbortSignal/);
    expect(() => modelFiles('./m', { cache: true } as never)).toThrow(/^modelFiles: 'options' must be an object with only the keys onProgress, signal, caller, fetch/);
    expect(() => files.subfolder('../up')).toThrow(ModelLoadError);
  });
});
