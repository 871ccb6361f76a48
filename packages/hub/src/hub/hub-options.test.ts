import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { resolveHubOptions } from './hub-options.js';

afterEach(() => vi.unstubAllEnvs());

describe('resolveHubOptions', () => {
  it("takes the HF_* variables Python's huggingface_hub reads, and the options before them", () => {
    for (const name of ['HF_HUB_CACHE', 'HF_HOME', 'XDG_CACHE_HOME', 'HF_HUB_OFFLINE', 'HF_TOKEN', 'HF_ENDPOINT']) vi.stubEnv(name, '');
    vi.stubEnv('HOME', '/home/me');
    expect(resolveHubOptions(undefined, 'f')).toMatchObject({ offline: false, token: undefined });
    expect(resolveHubOptions(undefined, 'f').endpoint.href).toBe('https://huggingface.co/');
    vi.stubEnv('HF_HOME', '/data/hf');
    expect(resolveHubOptions(undefined, 'f').cacheDir).toBe('/data/hf/hub');
    vi.stubEnv('HF_HUB_CACHE', '/fast/cache');
    vi.stubEnv('HF_HUB_OFFLINE', '1');
    vi.stubEnv('HF_TOKEN', 'hf_env');
    vi.stubEnv('HF_ENDPOINT', 'https://mirror.example/');
    expect(resolveHubOptions(undefined, 'f')).toMatchObject({ cacheDir: '/fast/cache', offline: true, token: 'hf_env' });
    expect(resolveHubOptions(undefined, 'f').endpoint.href).toBe('https://mirror.example/');
    expect(resolveHubOptions({ cacheDir: '/mine', offline: false, token: 'hf_mine', endpoint: 'http://127.0.0.1:8080' }, 'f')).toMatchObject({ cacheDir: '/mine', offline: false, token: 'hf_mine' });
  });

  it('refuses what it cannot use, never showing a token', () => {
    expect(() => resolveHubOptions({ offline: 'yes' } as never, 'loadEncoder')).toThrow("loadEncoder: 'hub.offline' must be true or false; received string 'yes'.");
    expect(() => resolveHubOptions({ endpoint: 'ftp://hub' }, 'loadEncoder')).toThrow(/^loadEncoder: 'hub\.endpoint' must be the http\(s\) address of a Hugging Face Hub/);
    expect(() => resolveHubOptions({ cache: '/x' } as never, 'loadEncoder')).toThrow(InvalidArgumentError);
    expect(() => resolveHubOptions({ token: 123 } as never, 'loadEncoder')).toThrow("loadEncoder: 'hub.token' must be an access token (a non-empty string); received a number.");
  });
});
