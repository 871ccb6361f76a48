import { afterEach, describe, expect, it, vi } from 'vitest';
import { webgpuAdapter } from './webgpu-adapter.js';

afterEach(() => vi.unstubAllGlobals());

describe('webgpuAdapter outside Node (stubbed browser globals)', () => {
  it('names a missing navigator.gpu and a missing adapter separately', async () => {
    vi.stubGlobal('document', {});
    vi.stubGlobal('navigator', {});
    expect(await webgpuAdapter.unavailableReason()).toBe('navigator.gpu is missing (this browser has WebGPU disabled)');
    vi.stubGlobal('navigator', { gpu: { requestAdapter: async () => null } });
    expect(await webgpuAdapter.unavailableReason()).toBe(
      'navigator.gpu.requestAdapter() returned no adapter (headless Chromium needs --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader)',
    );
    vi.stubGlobal('navigator', { gpu: { requestAdapter: async () => ({ limits: { maxStorageBufferBindingSize: 1 } }) } });
    expect(await webgpuAdapter.unavailableReason()).toBeUndefined();
  });
});
