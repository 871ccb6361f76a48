import { describe, expect, it } from 'vitest';
import { servedPath } from './served-path.js';

describe('servedPath', () => {
  it('is the decoded file path in Node', () => {
    expect(servedPath(new URL('file:///work/a%20b/fixtures/x/'))).toBe('/work/a b/fixtures/x/');
  });
});
