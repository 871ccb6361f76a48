import { describe, expect, it } from 'vitest';
import { availableBackends } from './available-backends.js';

describe('availableBackends (Node)', () => {
  it('lists cpu and wasm, never webgl or webgpu', async () => expect(await availableBackends()).toEqual(['cpu', 'wasm']));
});
