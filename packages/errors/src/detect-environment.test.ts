import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectEnvironment } from './detect-environment.js';

afterEach(() => vi.unstubAllGlobals());

describe('detectEnvironment', () => {
  it('recognises Node', () => expect(detectEnvironment()).toBe('node'));
  it('recognises a page by its document, and a worker by having neither', () => {
    vi.stubGlobal('document', {});
    expect(detectEnvironment()).toBe('browser');
    vi.stubGlobal('document', undefined);
    vi.stubGlobal('process', undefined);
    expect(detectEnvironment()).toBe('worker');
  });
});
