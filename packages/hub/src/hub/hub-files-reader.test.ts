import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelLoadError } from '../model-load-error.js';
import { modelFiles } from '../model-files.js';
import { MockHub } from '@attnkit/test-utils/mock-hub';

const big = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 251); // over the mock's LFS threshold: served from its CDN path
const files = { 'config.json': '{"model_type":"bert"}', 'model.safetensors': big, '1_Pooling/config.json': '{"pooling_mode_mean_tokens":true}' };
let hub: MockHub;
beforeAll(async () => {
  hub = await MockHub.start({ 'acme/tiny': { files }, 'acme/gated': { files, token: 'hf_right' } });
});
afterAll(() => hub.stop());

const freshCache = () => mkdtempSync(join(tmpdir(), 'attnkit-hub-cache-'));
const open = (cacheDir: string, extra: object = {}, id = 'acme/tiny') => modelFiles(id, { caller: 'loadEncoder', hub: { endpoint: hub.url, cacheDir, ...extra } });
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
const requestsDuring = async (work: () => Promise<unknown>) => {
  const before = hub.requests.length;
  await work();
  return hub.requests.slice(before);
};

describe('a model by Hugging Face id, through the cache Python uses', () => {
  it("downloads into an empty cache in huggingface_hub's layout: blobs by ETag, relative snapshot links, refs/main", async () => {
    const cacheDir = freshCache();
    const reader = open(cacheDir);
    expect(text(await reader.read('config.json', { required: true }))).toBe(files['config.json']);
    expect(await reader.read('model.safetensors', { required: true })).toEqual(big);
    expect(text(await reader.subfolder('1_Pooling').read('config.json'))).toBe(files['1_Pooling/config.json']);
    const repo = join(cacheDir, 'models--acme--tiny');
    const commit = hub.commitOf('acme/tiny');
    expect(readFileSync(join(repo, 'refs', 'main'), 'utf8')).toBe(commit);
    const link = join(repo, 'snapshots', commit, 'model.safetensors');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toMatch(/^\.\.\/\.\.\/blobs\/[0-9a-f]{64}$/); // the sha256 the Hub gives as X-Linked-Etag
    expect(readlinkSync(join(repo, 'snapshots', commit, '1_Pooling', 'config.json'))).toMatch(/^\.\.\/\.\.\/\.\.\/blobs\/[0-9a-f]{40}$/); // a small file: its git hash
    expect(readdirSync(join(repo, 'blobs')).sort()).toHaveLength(3);
    expect(readdirSync(join(repo, 'blobs')).some((name) => name.endsWith('.incomplete'))).toBe(false);
  });

  it('reads what the cache holds without downloading it again (one HEAD per file), and with no request at all offline', async () => {
    const cacheDir = freshCache();
    await open(cacheDir).read('model.safetensors');
    const again = await requestsDuring(() => open(cacheDir).read('model.safetensors'));
    expect(again.map((r) => r.method)).toEqual(['HEAD']);
    const offline = await requestsDuring(async () => expect(await open(cacheDir, { offline: true }).read('model.safetensors')).toEqual(big));
    expect(offline).toEqual([]);
  });

  it('offline, names a required file the cache lacks and says what to do; an optional one is missing', async () => {
    const cacheDir = freshCache();
    await open(cacheDir).read('config.json');
    const reader = open(cacheDir, { offline: true });
    expect(await reader.read('modules.json')).toBeUndefined();
    const error = await reader.read('model.safetensors', { required: true }).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error?.message).toMatch(/^loadEncoder: model\.safetensors of acme\/tiny is not in the cache \(.*models--acme--tiny\) and the hub is not asked \(offline: hub\.offline or HF_HUB_OFFLINE\)\. Download the model while online \(attnkit download acme\/tiny\)/);
  });

  it('falls back to the cache when the Hub cannot be reached, as huggingface_hub does', async () => {
    const cacheDir = freshCache();
    await open(cacheDir).read('config.json');
    const unreachable = modelFiles('acme/tiny', { caller: 'loadEncoder', hub: { endpoint: 'http://127.0.0.1:9', cacheDir } });
    expect(text(await unreachable.read('config.json', { required: true }))).toBe(files['config.json']);
    await expect(unreachable.read('model.safetensors', { required: true })).rejects.toThrow(/is not in the cache .* and http:\/\/127\.0\.0\.1:9 cannot be reached/);
  });

  it('resumes a download that broke off, with a Range request for the bytes it lacks', async () => {
    const cacheDir = freshCache();
    hub.dropNextDownloadAfter = 1200;
    const first = await open(cacheDir).read('model.safetensors').then(() => undefined, (e: unknown) => e as Error);
    expect(first).toBeInstanceOf(ModelLoadError);
    expect(first?.message).toMatch(/model\.safetensors: the download (broke off after|ended after) \d+ (bytes|of 5000 bytes).*loading again resumes it\.$/);
    const partial = readdirSync(join(cacheDir, 'models--acme--tiny', 'blobs')).find((name) => name.endsWith('.incomplete'))!;
    const kept = statSync(join(cacheDir, 'models--acme--tiny', 'blobs', partial)).size;
    expect(kept).toBeGreaterThan(0);
    const second = await requestsDuring(async () => expect(await open(cacheDir).read('model.safetensors')).toEqual(big));
    expect(second.find((r) => r.path.startsWith('/cdn/'))?.range).toBe(`bytes=${kept}-`);
  });

  it('downloads a file once when two loads ask for it at the same time', async () => {
    const cacheDir = freshCache();
    const requests = await requestsDuring(async () => {
      const [a, b] = await Promise.all([open(cacheDir).read('model.safetensors'), open(cacheDir).read('model.safetensors')]);
      expect(a).toEqual(big);
      expect(b).toEqual(big);
    });
    expect(requests.filter((r) => r.path.startsWith('/cdn/') && r.method === 'GET')).toHaveLength(1);
  });

  it("waits for another process's download of a blob (its lock file), and takes over a lock whose holder stopped", async () => {
    const { mkdirSync, writeFileSync, rmSync, utimesSync } = await import('node:fs');
    const { createHash } = await import('node:crypto');
    const etag = createHash('sha256').update(big).digest('hex');
    const cacheDir = freshCache();
    const locks = join(cacheDir, '.locks', 'models--acme--tiny');
    mkdirSync(locks, { recursive: true });
    writeFileSync(join(locks, `${etag}.lock`), '');
    const waiting = await requestsDuring(async () => {
      const reading = open(cacheDir).read('model.safetensors');
      setTimeout(() => {
        mkdirSync(join(cacheDir, 'models--acme--tiny', 'blobs'), { recursive: true });
        writeFileSync(join(cacheDir, 'models--acme--tiny', 'blobs', etag), big); // the other process finishes
        rmSync(join(locks, `${etag}.lock`));
      }, 300);
      expect(await reading).toEqual(big);
    });
    expect(waiting.filter((r) => r.path.startsWith('/cdn/'))).toEqual([]); // no second download
    const stale = freshCache();
    mkdirSync(join(stale, '.locks', 'models--acme--tiny'), { recursive: true });
    writeFileSync(join(stale, '.locks', 'models--acme--tiny', `${etag}.lock`), '');
    utimesSync(join(stale, '.locks', 'models--acme--tiny', `${etag}.lock`), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(await open(stale).read('model.safetensors')).toEqual(big);
  });

  it('remembers a file the commit does not have (.no_exist), and reads a commit pinned by its hash with no request once cached', async () => {
    const cacheDir = freshCache();
    expect(await open(cacheDir).read('modules.json')).toBeUndefined();
    const commit = hub.commitOf('acme/tiny');
    expect(existsSync(join(cacheDir, 'models--acme--tiny', '.no_exist', commit, 'modules.json'))).toBe(true);
    await open(cacheDir).read('config.json');
    const pinned = await requestsDuring(() => open(cacheDir, {}, `acme/tiny@${commit}`).read('config.json'));
    expect(pinned).toEqual([]);
  });

  it('a gated model needs its token, which goes in the request and never in a message', async () => {
    const cacheDir = freshCache();
    const without = await open(cacheDir, {}, 'acme/gated').read('config.json').then(() => undefined, (e: unknown) => e as Error);
    expect(without?.message).toMatch(/^loadEncoder: acme\/gated needs access \(HTTP 401 from http:\/\/127\.0\.0\.1:\d+\): it is gated or private\. Accept its terms on the Hub and set HF_TOKEN/);
    const wrong = await open(cacheDir, { token: 'hf_wrong_secret' }, 'acme/gated').read('config.json').then(() => undefined, (e: unknown) => e as Error);
    expect(wrong?.message).toMatch(/the token sent was not accepted/);
    expect(wrong?.message).not.toContain('hf_wrong_secret');
    const requests = await requestsDuring(async () => {
      const reader = open(cacheDir, { token: 'hf_right' }, 'acme/gated');
      expect(text(await reader.read('config.json'))).toBe(files['config.json']);
      expect(await reader.read('model.safetensors')).toEqual(big);
    });
    expect(requests.filter((r) => r.path.includes('/resolve/')).every((r) => r.authorized)).toBe(true);
    expect(requests.filter((r) => r.path.startsWith('/cdn/')).map((r) => r.authorized)).toEqual([false]); // the CDN is another origin: no token
  });

  it('names a repository or a revision the Hub does not have', async () => {
    const cacheDir = freshCache();
    await expect(open(cacheDir, {}, 'acme/nothing').read('config.json')).rejects.toThrow(/acme\/nothing needs access \(HTTP 401.*Or the id is misspelled/);
    await expect(open(cacheDir, {}, 'acme/tiny@v9').read('config.json')).rejects.toThrow(/^loadEncoder: acme\/tiny@v9 is not on http:\/\/127\.0\.0\.1:\d+ \(no revision v9\): check the id/);
  });

  it('a local folder wins over an id of the same spelling; ./org/name is always a folder', async () => {
    const root = freshCache();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(root, 'acme', 'tiny'), { recursive: true });
    writeFileSync(join(root, 'acme', 'tiny', 'config.json'), '{"local":true}');
    const here = process.cwd();
    process.chdir(root);
    try {
      const requests = await requestsDuring(async () => expect(text(await modelFiles('acme/tiny', { hub: { endpoint: hub.url, cacheDir: root } }).read('config.json'))).toBe('{"local":true}'));
      expect(requests).toEqual([]);
    } finally {
      process.chdir(here);
    }
  });
});
