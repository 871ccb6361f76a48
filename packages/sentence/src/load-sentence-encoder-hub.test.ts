import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useBackend, maxDifference } from '@attnkit/backends';
import reference from '@attnkit/reference/fixtures/hub-cache.json' with { type: 'json' };
import scan from '@attnkit/reference/fixtures/hub-cache-scan.json' with { type: 'json' };
import { MockHub } from '@attnkit/test-utils/mock-hub';
import { loadSentenceEncoder } from './load-sentence-encoder.js';

// Models by Hugging Face id: a cache that Python's huggingface_hub filled (tooling/reference/
// make_hub_cache_fixture.py), read with the network disabled; and a mock Hub serving the same folder.
const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);
const folder = `${fixtures}sentence/bert-mean-normalize`;
let hub: MockHub;
beforeAll(async () => {
  await useBackend('cpu');
  const files = Object.fromEntries(readdirSync(folder, { recursive: true }).map(String).filter((path) => statSync(join(folder, path)).isFile()).map((path) => [path, new Uint8Array(readFileSync(join(folder, path)))]));
  hub = await MockHub.start({ 'acme/st-bert': { files, commit: reference.commit } });
});
afterAll(() => hub.stop());

const embed = async (source: Parameters<typeof loadSentenceEncoder>[0], options: Parameters<typeof loadSentenceEncoder>[1] = {}) => {
  const model = await loadSentenceEncoder(source, options);
  const embeddings = await model.encode(reference.texts);
  const values = Array.from(await embeddings.data());
  embeddings.dispose();
  model.dispose();
  return values;
};

describe('loadSentenceEncoder by Hugging Face id', () => {
  it("loads from the cache Python's huggingface_hub filled, with the network disabled: the same embeddings as the folder, and as sentence-transformers", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'attnkit-python-cache-'));
    cpSync(`${fixtures}${reference.cache}`, cacheDir, { recursive: true, verbatimSymlinks: true });
    const fetch = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('the network is disabled in this test'));
    try {
      const byId = await embed(reference.id, { hub: { cacheDir, offline: true } });
      expect(fetch).not.toHaveBeenCalled();
      expect(byId).toEqual(await embed(folder));
      expect(maxDifference(byId, reference.embeddings.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-6);
      expect(await embed({ id: reference.id, revision: reference.commit }, { hub: { cacheDir, offline: true } })).toEqual(byId);
    } finally {
      fetch.mockRestore();
    }
  });

  it('downloads into an empty cache from the Hub, once for two loads at the same time, then loads offline', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'attnkit-empty-cache-'));
    const before = hub.requests.length;
    const [a, b] = await Promise.all([embed(reference.id, { hub: { endpoint: hub.url, cacheDir } }), embed(reference.id, { hub: { endpoint: hub.url, cacheDir } })]);
    expect(a).toEqual(await embed(folder));
    expect(b).toEqual(a);
    const downloads = hub.requests.slice(before).filter((r) => r.method === 'GET');
    expect(new Set(downloads.map((r) => r.path)).size).toBe(downloads.length); // no file fetched twice
    expect(await embed(reference.id, { hub: { cacheDir, offline: true } })).toEqual(a);
    // the layout Python's huggingface_hub checked (scan_cache_dir: no warnings; SentenceTransformer loads it offline
    // to the reference embeddings) is the layout attnkit writes
    const repo = join(cacheDir, 'models--acme--st-bert');
    const [checked] = scan.repos;
    expect(scan.warnings).toEqual([]);
    expect(maxDifference(scan.embeddings.flat(), reference.embeddings.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-12);
    expect(readdirSync(join(repo, 'refs'))).toEqual(checked!.refs);
    expect(readFileSync(join(repo, 'refs', 'main'), 'utf8')).toBe(checked!.revisions[0]!.commit);
    const snapshot = join(repo, 'snapshots', reference.commit);
    expect(readdirSync(snapshot, { recursive: true }).map(String).filter((path) => statSync(join(snapshot, path)).isFile()).sort()).toEqual(checked!.revisions[0]!.files);
  });
});
