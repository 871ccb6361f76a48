import { afterEach, describe, expect, it, vi } from 'vitest';
import { WASM_PACKAGE } from './adapters/backend-packages.js';
import { availableBackends } from './available-backends.js';

afterEach(() => vi.restoreAllMocks());

describe('availableBackends (Node)', () => {
  it('lists cpu and wasm, never webgl or webgpu', async () => expect(await availableBackends()).toEqual(['cpu', 'wasm']));
  it('leaves wasm out when @tensorflow/tfjs-backend-wasm is not installed, without loading anything', async () => {
    vi.spyOn(WASM_PACKAGE, 'installed').mockReturnValue(false);
    const load = vi.spyOn(WASM_PACKAGE, 'load');
    expect(await availableBackends()).toEqual(['cpu']);
    expect(load).not.toHaveBeenCalled();
  });
});
