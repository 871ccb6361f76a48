// Tests tooling/scripts/stale-build.mjs, which `npm run demo` (tooling/scripts/bootstrap.mjs) asks
// whether this package's build can be started instead of its sources.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleBuild } from '../../../tooling/scripts/stale-build.mjs';

/** A workspace: @x/app (a bin) depends on @x/lib; @x/dev is only a devDependency. Every file gets mtime `at` (seconds). */
function workspace(): { root: string; file: (path: string, at: number, content?: string) => void } {
  const root = mkdtempSync(join(tmpdir(), 'attnkit-stale-'));
  const file = (path: string, at: number, content = '') => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
    utimesSync(join(root, path), at, at);
  };
  const manifest = (name: string, extra: object) => JSON.stringify({ name, exports: { '.': { types: './dist/index.d.ts', '@attnkit/source': './src/index.ts', default: './dist/index.js' } }, ...extra });
  file('packages/app/package.json', 100, manifest('@x/app', { bin: { app: './dist/cli.js' }, dependencies: { '@x/lib': 'workspace:^', 'left-pad': '1.0.0' }, devDependencies: { '@x/dev': 'workspace:*' } }));
  file('packages/lib/package.json', 100, manifest('@x/lib', {}));
  file('packages/dev/package.json', 100, manifest('@x/dev', {}));
  for (const p of ['app', 'lib']) {
    file(`packages/${p}/tsconfig.json`, 100, '{}');
    file(`packages/${p}/src/index.ts`, 100);
    file(`packages/${p}/src/deep/part.ts`, 100);
    file(`packages/${p}/dist/index.js`, 200);
  }
  file('packages/app/dist/cli.js', 200);
  return { root, file };
}

describe('staleBuild (npm run demo starts the build only when it is current)', () => {
  it('a build newer than the sources of the package and of its workspace dependencies is current (devDependencies and tests aside)', () => {
    const { root, file } = workspace();
    expect(staleBuild(root, '@x/app')).toBeUndefined();
    file('packages/lib/src/deep/part.test.ts', 300); // tests are not built
    expect(staleBuild(root, '@x/app')).toBeUndefined();
  });

  it.each([
    ['a source of a dependency edited after its build', 'packages/lib/src/deep/part.ts', 'packages/lib/src/deep/part.ts is newer than the build of @x/lib'],
    ['a manifest edited after the build', 'packages/app/package.json', 'packages/app/package.json is newer than the build of @x/app'],
    ['a tsconfig edited after the build', 'packages/lib/tsconfig.json', 'packages/lib/tsconfig.json is newer than the build of @x/lib'],
    ['a source added after the build', 'packages/app/src/new-file.ts', 'packages/app/src/new-file.ts is newer than the build of @x/app'],
  ])('%s is stale', (_, path, reason) => {
    const { root, file } = workspace();
    file(path, 300, path.endsWith('.json') ? JSON.stringify({ name: path.includes('app') ? '@x/app' : '@x/lib', exports: { '.': { default: './dist/index.js' } }, ...(path.includes('app') ? { bin: { app: './dist/cli.js' }, dependencies: { '@x/lib': 'workspace:^' } } : {}) }) : '');
    expect(staleBuild(root, '@x/app')).toBe(reason);
  });

  it('a missing build (a fresh clone) or a missing bin is stale; one entry older than the sources is stale', () => {
    const { root, file } = workspace();
    rmSync(join(root, 'packages/app/dist/cli.js'));
    expect(staleBuild(root, '@x/app')).toBe('packages/app/dist/cli.js is missing (not built yet)');
    file('packages/app/dist/cli.js', 50); // an older build's bin
    file('packages/app/src/deep/part.ts', 120); // the newest input is the one named
    expect(staleBuild(root, '@x/app')).toBe('packages/app/src/deep/part.ts is newer than the build of @x/app');
    rmSync(join(root, 'packages/lib/dist'), { recursive: true });
    file('packages/app/dist/cli.js', 200);
    expect(staleBuild(root, '@x/app')).toBe('packages/lib/dist/index.js is missing (not built yet)');
    expect(staleBuild(root, '@x/none')).toBe(`@x/none is not a package of ${root}`);
  });
});
