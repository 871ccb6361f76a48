// One install line per use, the same rule everywhere: a README's `npm install` line names the
// @attnkit and @tensorflow packages its own snippets import, @tensorflow/tfjs-core and the backend
// package they start, and nothing else of those scopes (npm installs the rest as dependencies).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attnkitAndTfjs, expectedInstall, installLines, type InstallContext } from './install-line.js';
import { readmeSnippets } from './readme-snippets.js';
import { PACKAGE_READMES, readRepoFile, ROOT, section } from './workspace-readmes.js';

type Manifest = { name: string; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };

const root = readRepoFile('README.md');
/** The @attnkit packages in the packages table's order (errors first). */
const ORDER = [...section(root, '## Packages').matchAll(/^\| \[`(@attnkit\/[a-z-]+)`\]/gm)].map((m) => m[1]!);
const manifests = new Map(PACKAGE_READMES.map((readme) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, readme.replace('README.md', 'package.json')), 'utf8')) as Manifest;
  return [manifest.name, manifest] as const;
}));
const needsCore = (name: string): boolean => {
  const manifest = manifests.get(name);
  return manifest?.peerDependencies?.['@tensorflow/tfjs-core'] !== undefined && manifest.peerDependenciesMeta?.['@tensorflow/tfjs-core']?.optional !== true;
};
const context = (own?: string): InstallContext => ({ ...(own === undefined ? {} : { own }), order: ORDER, needsCore });

/**
 * READMEs this branch may not edit, with the install line they have now. packages/cli is being
 * changed elsewhere; its line should read `npm install @attnkit/cli @tensorflow/tfjs-core` (cli has
 * tfjs-core as a peer dependency). When it does, this entry fails: delete it.
 */
const KNOWN: Record<string, string[]> = { 'packages/cli/README.md': ['@attnkit/cli'] };

describe('installLines', () => {
  it('reads every npm install line of the sh blocks, without flags, versions or comments', () => {
    const markdown = ['```sh', 'npm install @attnkit/masks @tensorflow/tfjs-core@^4.22.0 --save   # cpu only', 'npx attnkit', '```', '`npm install not-in-a-block`', '```sh', 'npm install vite@7', '```'].join('\n');
    expect(installLines(markdown)).toEqual([['@attnkit/masks', '@tensorflow/tfjs-core'], ['vite']]);
  });
});

describe('expectedInstall', () => {
  const table: InstallContext = { order: ['@attnkit/errors', '@attnkit/backends', '@attnkit/masks', '@attnkit/models', '@attnkit/sentence'], needsCore: (name) => name !== '@attnkit/errors' };
  const ctx: InstallContext = { ...table, own: '@attnkit/masks' };
  it('names the imports (own package first, then table order), tfjs-core for a peer, and the started backends', () => {
    const code = "import { useBackend } from '@attnkit/backends';\nimport { paddingMask } from '@attnkit/masks';\nimport { defineConfig } from 'vite';\nawait useBackend('webgl');\nawait useBackend('cpu');";
    expect(expectedInstall(code, '', ctx)).toEqual(['@attnkit/masks', '@attnkit/backends', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-webgl']);
  });

  it('adds wasm for a model loaded without useBackend (the Node default), and what the setup copies from node_modules', () => {
    const code = "import { loadSentenceEncoder } from '@attnkit/sentence';\nawait loadSentenceEncoder('./m');";
    expect(expectedInstall(code, 'cp -r node_modules/@attnkit/models/assets/x public/', table)).toEqual(['@attnkit/models', '@attnkit/sentence', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm']);
  });

  it('leaves tfjs-core out where nothing needs it', () => {
    expect(expectedInstall("import { AttnkitError } from '@attnkit/errors';", '', ctx)).toEqual(['@attnkit/errors']);
  });
});

describe('the install line of every README', () => {
  it('finds the packages table and every package README', () => {
    expect(ORDER.length).toBe(PACKAGE_READMES.length);
    expect(PACKAGE_READMES.length).toBe(13);
  });

  it.each(PACKAGE_READMES)('%s: one line under "## Install", naming what its snippets import and start', (readme) => {
    const text = readRepoFile(readme);
    const lines = installLines(section(text, '## Install'));
    expect(lines.length, `${readme}: one npm install line under "## Install"`).toBe(1);
    const code = readmeSnippets(readme, text).map((s) => s.code).join('\n');
    const own = [...manifests.values()].find((m) => readme === `packages/${m.name.replace('@attnkit/', '')}/README.md`)!.name;
    expect(attnkitAndTfjs(lines[0]!)).toEqual(KNOWN[readme] ?? expectedInstall(code, '', context(own)));
  });

  it.each(['### Node', '### Vite (browser)'])('README.md, "%s": one line, naming what its snippets import and start', (heading) => {
    const use = section(section(root, '## Use it in your app'), heading);
    const lines = installLines(use);
    expect(lines.length).toBe(1);
    const code = readmeSnippets('README.md', use).map((s) => s.code).join('\n');
    expect(attnkitAndTfjs(lines[0]!)).toEqual(expectedInstall(code, use, context()));
  });
});
