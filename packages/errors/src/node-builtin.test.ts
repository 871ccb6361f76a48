import { describe, expect, it } from 'vitest';
import { nodeBuiltin } from './node-builtin.js';

describe('nodeBuiltin', () => {
  it('returns the same module objects Node itself uses', async () => {
    expect(nodeBuiltin('node:path').join('a', 'b')).toBe('a/b');
    expect(nodeBuiltin('node:os').cpus).toBe((await import('node:os')).cpus);
  });
});
