import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { createDecoder } from './create-decoder.js';

const decode = (json: Record<string, unknown>, tokens: string[]) => createDecoder(ComponentConfig.of(json, 'decoder', 'Tokenizer'))(tokens).join('');

describe('createDecoder', () => {
  // references: tokenizers 0.23 decoders.<Type>(...).decode(tokens)
  it('builds each decoder type as the library runs it', () => {
    expect(decode({ type: 'BPEDecoder', suffix: '</w>' }, ['hel', 'lo</w>', 'wor', 'ld</w>'])).toBe('hello world');
    expect(decode({ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, ['▁Hi', '▁there'])).toBe(' Hi there');
    expect(decode({ type: 'Replace', pattern: { Regex: '▁+' }, content: '$1' }, ['▁▁a'])).toBe('$1a');
    expect(decode({ type: 'Fuse' }, ['a', 'b'])).toBe('ab');
    expect(decode({ type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] }, ['▁Hi', '<0x21>'])).toBe('Hi!');
  });

  it('refuses an unknown type and a Strip content of two characters by name', () => {
    expect(thrown(() => decode({ type: 'Unheard' }, []))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => decode({ type: 'Strip', content: '  ', start: 1, stop: 0 }, [])).message).toBe(`Tokenizer: 'tokenizer.json decoder.content (Strip)' must be one character; received "  ".`);
  });
});
