import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { withNodeCpus } from './with-node-cpus.js';

const os = createRequire(import.meta.url)('node:os') as typeof import('node:os');

describe('withNodeCpus', () => {
  it('reports the given CPU count only while fn runs (also when it throws)', async () => {
    const real = os.cpus().length;
    expect(await withNodeCpus(real + 6, async () => os.cpus().length)).toBe(real + 6);
    expect(os.cpus().length).toBe(real);
    await expect(withNodeCpus(1, async () => { throw new Error('init failed'); })).rejects.toThrow('init failed');
    expect(os.cpus().length).toBe(real);
  });
});
