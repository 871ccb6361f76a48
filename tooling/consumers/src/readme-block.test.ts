import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeBlock } from './readme-block.js';

const README = ['# App', '<!-- consumer:node -->', '```js', "console.log('hi');", '', '```', '<!-- /consumer:node -->', '<!-- consumer:two -->', '```sh', 'a', '```', '```sh', 'b', '```', '<!-- /consumer:two -->'].join('\n');

describe('readmeBlock', () => {
  it('returns the code between the markers, verbatim', () => {
    expect(readmeBlock(README, 'node')).toBe("console.log('hi');\n\n");
  });

  it('names the markers of a missing section, and refuses a section with more than one block', () => {
    expect(() => readmeBlock(README, 'vite-main')).toThrow('readmeBlock: README.md has no <!-- consumer:vite-main --> … <!-- /consumer:vite-main --> section.');
    expect(() => readmeBlock(README, 'two')).toThrow('readmeBlock: the <!-- consumer:two --> section must hold one fenced code block; found 2.');
  });

  it('finds every section the consumer tests run in the root README', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
    for (const name of ['node-setup', 'node', 'vite-setup', 'vite-config', 'vite-html', 'vite-main']) expect(readmeBlock(readme, name)).not.toBe('');
  });
});
