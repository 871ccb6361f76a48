import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockHub } from '@attnkit/test-utils/mock-hub';

// --model takes a Hugging Face id: the built bin, offline from a cache Python's huggingface_hub
// filled, and online from a mock Hub into an empty cache (then attnkit download / cache).
const run = promisify(execFile);
const bin = join(import.meta.dirname, '..', 'dist', 'cli.js');
const fixtures = join(import.meta.dirname, '..', '..', '..', 'tooling', 'reference', 'fixtures');
const reference = JSON.parse(readFileSync(join(fixtures, 'hub-cache.json'), 'utf8')) as { id: string; cache: string; commit: string };
const folder = join(fixtures, 'sentence', 'bert-mean-normalize');
const attnkit = (args: string[], env: Record<string, string>) => run(process.execPath, [bin, ...args], { cwd: mkdtempSync(join(tmpdir(), 'attnkit-id-')), env: { ...process.env, ...env } });
let hub: MockHub;
beforeAll(async () => {
  const files = Object.fromEntries(readdirSync(folder, { recursive: true }).map(String).filter((path) => statSync(join(folder, path)).isFile()).map((path) => [path, new Uint8Array(readFileSync(join(folder, path)))]));
  hub = await MockHub.start({ [reference.id]: { files, commit: reference.commit } });
});
afterAll(() => hub.stop());

describe('attnkit --model ID', () => {
  it('encodes with a model Python downloaded, offline, the same numbers as its folder', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'attnkit-cli-cache-'));
    cpSync(join(fixtures, reference.cache), cache, { recursive: true, verbatimSymlinks: true });
    const byId = await attnkit(['encode', '--model', reference.id, '--text', 'Hello world', '--backend', 'cpu'], { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: '1', HF_ENDPOINT: 'http://127.0.0.1:9' });
    const byFolder = await attnkit(['encode', '--model', folder, '--text', 'Hello world', '--backend', 'cpu'], {});
    const embedding = (stdout: string) => (JSON.parse(stdout) as { sentence_embedding: number[][] }).sentence_embedding;
    expect(embedding(byId.stdout)).toEqual(embedding(byFolder.stdout));
  });

  it('downloads into an empty cache (attnkit download), lists and deletes it (attnkit cache)', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'attnkit-cli-cache-'));
    const env = { HF_HUB_CACHE: cache, HF_ENDPOINT: hub.url };
    const downloaded = await attnkit(['download', reference.id], env);
    expect(downloaded.stdout.trim()).toBe(join(cache, `models--${reference.id.replace('/', '--')}`, 'snapshots', reference.commit));
    const similarity = await attnkit(['similarity', '--model', reference.id, '--text', 'a cat', '--text', 'a dog', '--json', '--backend', 'cpu'], { ...env, HF_HUB_OFFLINE: '1' });
    expect((JSON.parse(similarity.stdout) as { similarity: number[][] }).similarity[0]![0]).toBeCloseTo(1, 5);
    const listed = JSON.parse((await attnkit(['cache', 'ls', '--json'], env)).stdout) as Array<{ id: string; size: number }>;
    expect(listed.map((m) => m.id)).toEqual([reference.id]);
    const removed = JSON.parse((await attnkit(['cache', 'rm', reference.id, '--json'], env)).stdout) as { freed: number };
    expect(removed.freed).toBe(listed[0]!.size);
    expect((await attnkit(['cache', 'ls'], env)).stdout.trim()).toBe('The cache holds no model.');
  });

  it('says so, exit 2, when the cache lacks the model offline', async () => {
    const failure = await attnkit(['encode', '--model', 'acme/absent', '--text', 'x'], { HF_HUB_CACHE: mkdtempSync(join(tmpdir(), 'attnkit-cli-cache-')), HF_HUB_OFFLINE: '1' }).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/config\.json of acme\/absent is not in the cache .* Download the model while online \(attnkit download acme\/absent\)/);
  });
});
