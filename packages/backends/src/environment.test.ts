import { describe, expect, it } from 'vitest';
import { detectEnvironment } from './environment.js';

describe('detectEnvironment', () => {
  it('recognises Node', () => expect(detectEnvironment()).toBe('node'));
});
