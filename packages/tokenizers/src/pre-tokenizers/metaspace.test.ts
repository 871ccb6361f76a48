import { describe, expect, it } from 'vitest';
import { metaspace } from './metaspace.js';

const run = (options: Parameters<typeof metaspace>[0], text: string, fromStart = 1) => metaspace(options)([{ text, fromStart }]).map((p) => p.text);

describe('metaspace', () => {
  // tokenizers 0.23: pre_tokenizers.Metaspace(...).pre_tokenize_str
  it('replaces spaces, prepends per prepend_scheme and splits before each ▁', () => {
    expect(run({ replacement: '▁', prependScheme: 'always', split: true }, 'Hello  world')).toEqual(['▁Hello', '▁', '▁world']);
    expect(run({ replacement: '▁', prependScheme: 'never', split: true }, 'Hello world')).toEqual(['Hello', '▁world']);
    expect(run({ replacement: '▁', prependScheme: 'always', split: false }, 'Hello world')).toEqual(['▁Hello▁world']);
  });

  it('prepends with "first" only to a piece aligned with the start of the text', () => {
    expect(run({ replacement: '▁', prependScheme: 'first', split: false }, 'hi', 1)).toEqual(['▁hi']);
    expect(run({ replacement: '▁', prependScheme: 'first', split: false }, 'hi', 0)).toEqual(['hi']);
  });
});
