import { describe, expect, it } from 'vitest';
import { importedPackages, readmeSnippets } from './readme-snippets.js';

const README = [
  '# @attnkit/x', // 1
  '```sh', // 2
  'npm install @attnkit/x',
  '```',
  '```ts', // 5
  "import { x } from '@attnkit/x';",
  '```',
  '<!-- fragment -->', // 8
  '```js',
  'x();',
  '```',
  '<!-- fragment: declare const encoder: Encoder; -->', // 12
  '```ts',
  'encoder.forward();',
  '```',
  '<!-- consumer:node -->', // 16
  '```ts',
  '```',
  '```html',
  '<p>',
  '```',
].join('\n');

describe('readmeSnippets', () => {
  it('finds every ts and js block with its first code line, and reads the fragment markers', () => {
    expect(readmeSnippets('x/README.md', README)).toEqual([
      { readme: 'x/README.md', line: 6, language: 'ts', fragment: false, declarations: '', code: "import { x } from '@attnkit/x';\n" },
      { readme: 'x/README.md', line: 10, language: 'js', fragment: true, declarations: '', code: 'x();\n' },
      { readme: 'x/README.md', line: 14, language: 'ts', fragment: true, declarations: 'declare const encoder: Encoder;', code: 'encoder.forward();\n' },
      { readme: 'x/README.md', line: 18, language: 'ts', fragment: false, declarations: '', code: '\n' },
    ]);
  });

  it('names a block that never closes', () => {
    expect(() => readmeSnippets('x/README.md', '# x\n```ts\nx();\n')).toThrow('readmeSnippets: x/README.md:2 opens a code block that never closes.');
  });
});

describe('importedPackages', () => {
  it('names the packages of static, side-effect and dynamic imports and import.meta.resolve, once each, sorted', () => {
    const code = [
      "import '@attnkit/backends/gradients';",
      "import { dispose, type Tensor } from '@tensorflow/tfjs-core';",
      "import {\n  useBackend,\n} from '@attnkit/backends';",
      "const { defineConfig } = await import('vite');",
      "const model = import.meta.resolve('@attnkit/models/assets/attnkit-tiny-bert');",
      "import { join } from 'node:path';",
      "import { helper } from './helper.js';",
      "console.log('not from here');",
    ].join('\n');
    expect(importedPackages(code)).toEqual(['@attnkit/backends', '@attnkit/models', '@tensorflow/tfjs-core', 'vite']);
  });
});
