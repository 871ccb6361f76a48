import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, parseBackendName } from './backend-name.js';
import { UnknownBackendError } from './errors/unknown-backend-error.js';

describe('parseBackendName', () => {
  it.each(BACKEND_NAMES)('accepts %s', (name) => expect(parseBackendName(name)).toBe(name));
  it.each([['WASM'], ['gpu'], [''], [undefined], [3]])('rejects %j with the list of known names', (name) => {
    expect(() => parseBackendName(name)).toThrow(UnknownBackendError);
    expect(() => parseBackendName(name)).toThrow(`unknown backend '${String(name)}'; attnkit knows cpu, wasm, webgl, webgpu.`);
  });
});
