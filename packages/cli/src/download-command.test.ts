import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { MockHub } from '@attnkit/test-utils/mock-hub';
import { globMatcher, parseDownloadArgs, runDownload } from './download-command.js';
import { formatCacheList, parseCacheArgs, runCache } from './cache-command.js';

let hub: MockHub;
beforeAll(async () => {
  hub = await MockHub.start({ 'acme/tiny': { files: { 'config.json': '{}', 'model.safetensors': new Uint8Array(2000), 'onnx/model.onnx': new Uint8Array(3000), 'README.md': '# tiny' } } });
  process.env['HF_ENDPOINT'] = hub.url;
});
afterAll(async () => {
  delete process.env['HF_ENDPOINT'];
  await hub.stop();
});

describe('attnkit download and attnkit cache', () => {
  it('downloads a model by id into the cache (only what --include keeps), lists it, deletes it', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'attnkit-cli-cache-'));
    const request = parseDownloadArgs(['acme/tiny', '--include', '*.json', '--include', '*.safetensors', '--cache-dir', cacheDir]);
    const got = await runDownload(request);
    expect(got.files).toEqual(['config.json', 'model.safetensors']);
    expect(existsSync(join(got.folder, 'model.safetensors'))).toBe(true);
    expect(existsSync(join(got.folder, 'onnx', 'model.onnx'))).toBe(false);
    const listed = runCache(parseCacheArgs(['ls', '--cache-dir', cacheDir]));
    expect(formatCacheList(listed as never)).toMatch(/^model {6}size {4}revisions {2}refs {2}modified\nacme\/tiny {2}2\.0 kB {2}1 {10}main {2}\d{4}-\d\d-\d\d$/);
    expect(runCache(parseCacheArgs(['rm', 'acme/tiny', '--cache-dir', cacheDir]))).toEqual({ id: 'acme/tiny', revision: undefined, freed: 2002 });
    expect(formatCacheList(runCache(parseCacheArgs(['ls', '--cache-dir', cacheDir])) as never)).toBe('The cache holds no model.');
  });

  it.each<[string[], RegExp]>([
    [[], /^attnkit download: 'model' must be one Hugging Face id: 'org\/name' or 'org\/name@revision'; received none\./],
    [['./folder'], /'model' must be one Hugging Face id.*received "\.\/folder"/],
    [['acme/a', 'acme/b'], /received "acme\/a", "acme\/b"/],
  ])('download %j is a usage error', (argv, message) => {
    expect(() => parseDownloadArgs(argv)).toThrow(InvalidArgumentError);
    expect(() => parseDownloadArgs(argv)).toThrow(message);
  });

  it.each<[string[], RegExp]>([
    [[], /^attnkit cache: 'action' must be ls, or rm and one model id \('org\/name'\); received none\./],
    [['list'], /received "list"/],
    [['ls', '--revision', 'v1'], /'revision' must be none with ls/],
    [['rm'], /received "rm"/],
  ])('cache %j is a usage error', (argv, message) => {
    expect(() => parseCacheArgs(argv)).toThrow(InvalidArgumentError);
    expect(() => parseCacheArgs(argv)).toThrow(message);
  });

  it('matches globs as hf download does: * within a folder, ** across folders, a bare pattern on the file name', () => {
    expect(globMatcher('*.json')('config.json')).toBe(true);
    expect(globMatcher('*.json')('1_Pooling/config.json')).toBe(true);
    expect(globMatcher('onnx/*')('onnx/model.onnx')).toBe(true);
    expect(globMatcher('onnx/*')('onnx/a/b.onnx')).toBe(false);
    expect(globMatcher('**/*.onnx')('onnx/a/b.onnx')).toBe(true);
    expect(globMatcher('model.?afetensors')('model.safetensors')).toBe(true);
    expect(globMatcher('*.json')('model.safetensors')).toBe(false);
  });
});
