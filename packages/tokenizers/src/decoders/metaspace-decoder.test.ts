import { describe, expect, it } from 'vitest';
import { metaspaceDecoder } from './metaspace-decoder.js';

describe('metaspaceDecoder', () => {
  it('drops every ▁ of the first token unless prepend_scheme is never (tokenizers 0.23 Metaspace decoder)', () => {
    expect(metaspaceDecoder('▁', 'always')(['▁Hello', '▁▁world']).join('')).toBe('Hello  world');
    expect(metaspaceDecoder('▁', 'never')(['▁Hello', '▁world']).join('')).toBe(' Hello world');
  });
});
