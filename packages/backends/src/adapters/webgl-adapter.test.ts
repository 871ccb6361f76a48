import { describe, expect, it } from 'vitest';
import { webglAdapter } from './webgl-adapter.js';
import { webgpuAdapter } from './webgpu-adapter.js';

// In Chromium both are exercised by run-conformance.browser.test.ts (capabilities, precision probe).
describe('webglAdapter / webgpuAdapter in Node', () => {
  it('say why they cannot run here, without loading anything', async () => {
    expect(await webglAdapter.unavailableReason()).toBe('Node.js has no WebGL (run it in a browser)');
    expect(await webgpuAdapter.unavailableReason()).toBe('Node.js has no WebGPU (run it in a browser)');
    expect(webglAdapter.fillKernels()).toEqual([]);
    expect(webgpuAdapter.fillKernels()).toEqual([]);
  });
});
