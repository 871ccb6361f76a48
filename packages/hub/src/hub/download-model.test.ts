import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockHub } from '@attnkit/test-utils/mock-hub';
import { ModelLoadError } from '../model-load-error.js';
import { modelFiles } from '../model-files.js';
import { deleteCachedModel } from './delete-cached-model.js';
import { downloadModel } from './download-model.js';
import { scanHubCache } from './scan-hub-cache.js';

const big = new Uint8Array(3000).fill(7);
let hub: MockHub;
beforeAll(async () => {
  hub = await MockHub.start({
    'acme/tiny': { files: { 'config.json': '{}', 'model.safetensors': big, '1_Pooling/config.json': '{"a":1}' } },
    'acme/other': { files: { 'config.json': '{"other":true}' } },
  });
});
afterAll(() => hub.stop());

describe('downloadModel, scanHubCache, deleteCachedModel', () => {
  it('downloads every file of a revision into the cache, so a load needs no network; lists and deletes what the cache holds', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'attnkit-download-'));
    const progress = new Set<string>();
    const got = await downloadModel('acme/tiny', { hub: { endpoint: hub.url, cacheDir }, onProgress: (p) => progress.add(p.file) });
    expect(got.commit).toBe(hub.commitOf('acme/tiny'));
    expect(got.files).toEqual(['config.json', 'model.safetensors', '1_Pooling/config.json']);
    expect(existsSync(join(got.folder, '1_Pooling', 'config.json'))).toBe(true);
    expect(progress.has('model.safetensors')).toBe(true);
    expect(await modelFiles('acme/tiny', { hub: { cacheDir, offline: true } }).read('model.safetensors')).toEqual(big);
    await downloadModel('acme/other', { hub: { endpoint: hub.url, cacheDir }, include: (path) => path.endsWith('.json') });

    const listed = scanHubCache({ hub: { cacheDir } });
    expect(listed.map((m) => m.id)).toEqual(['acme/tiny', 'acme/other']); // largest first
    expect(listed[0]).toMatchObject({ refs: { main: got.commit }, revisions: [{ commit: got.commit, files: ['1_Pooling/config.json', 'config.json', 'model.safetensors'] }] });
    expect(listed[0]!.size).toBe(3000 + 2 + 7);

    expect(deleteCachedModel('acme/tiny', { revision: 'main', hub: { cacheDir } })).toBe(3000 + 2 + 7);
    expect(scanHubCache({ hub: { cacheDir } }).find((m) => m.id === 'acme/tiny')).toMatchObject({ revisions: [], refs: {}, size: 0 });
    expect(deleteCachedModel('acme/other', { hub: { cacheDir } })).toBe(14);
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('models--'))).toEqual(['models--acme--tiny']);
  });

  it('says why it cannot: not an id, offline, a model that is not there, a revision the cache lacks', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'attnkit-download-'));
    await expect(downloadModel('./a-folder', { hub: { cacheDir } })).rejects.toThrow(/^downloadModel: downloads models named by Hugging Face id/);
    await expect(downloadModel('acme/tiny', { hub: { cacheDir, offline: true } })).rejects.toThrow('downloadModel: acme/tiny cannot be downloaded offline (hub.offline or HF_HUB_OFFLINE).');
    await expect(downloadModel('acme/nothing', { hub: { endpoint: hub.url, cacheDir } })).rejects.toThrow(/acme\/nothing needs access \(HTTP 401\)/);
    await expect(downloadModel('acme/tiny', { hub: { endpoint: hub.url, cacheDir }, include: 'json' } as never)).rejects.toThrow("downloadModel: 'include' must be a function (path) => boolean; received string 'json'.");
    expect(() => deleteCachedModel('acme/tiny', { hub: { cacheDir } })).toThrow(ModelLoadError);
    await downloadModel('acme/other', { hub: { endpoint: hub.url, cacheDir } });
    expect(() => deleteCachedModel('acme/other', { revision: 'v3', hub: { cacheDir } })).toThrow(/^deleteCachedModel: acme\/other@v3 is not in the cache \(revisions: [0-9a-f]{12}; refs: main\)\.$/);
  });
});
