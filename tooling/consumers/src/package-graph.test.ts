// The house's one-way data flow, checked against the code: the root README's packages table lists
// the packages in order, each importing only the ones above it. Every workspace import in a
// package's sources must be a declared dependency (devDependencies for tests), the declared
// dependencies must respect the table's order, and the workspace graph (with devDependencies,
// which turbo follows too) has no cycle.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
type Manifest = { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const packagesSection = readme.slice(readme.indexOf('## Packages'), readme.indexOf('\n## ', readme.indexOf('## Packages') + 1));
/** The table's order: `@attnkit/errors` first, `@attnkit/cli` last. */
const ORDER = [...packagesSection.matchAll(/^\| \[`(@attnkit\/[a-z-]+)`\]/gm)].map((m) => m[1]!);

const manifests = new Map<string, { dir: string; manifest: Manifest }>();
for (const group of ['packages', 'apps', 'tooling']) {
  for (const entry of readdirSync(join(ROOT, group))) {
    const file = join(ROOT, group, entry, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    manifests.set(manifest.name, { dir: join(ROOT, group, entry), manifest });
  }
}
const publishable = readdirSync(join(ROOT, 'packages')).filter((entry) => existsSync(join(ROOT, 'packages', entry, 'package.json'))).map((entry) => (JSON.parse(readFileSync(join(ROOT, 'packages', entry, 'package.json'), 'utf8')) as Manifest).name);
const workspace = (deps: Record<string, string> | undefined) => Object.keys(deps ?? {}).filter((name) => manifests.has(name));

/** Every .ts file under `dir`, recursively (no node_modules, no build output). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}
/** The workspace packages a file imports (static and dynamic imports, re-exports). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\(\s*|import\s+)'(@attnkit\/[a-z-]+)(?:\/[^']*)?'/g)].map((m) => m[1]!).filter((name) => manifests.has(name));
}

describe('the package graph', () => {
  it("the README's table names every publishable package once", () => {
    expect([...ORDER].sort()).toEqual([...publishable].sort());
    expect(new Set(ORDER).size).toBe(ORDER.length);
  });

  it.each(publishable)('%s depends only on packages above it in the table', (name) => {
    const { manifest } = manifests.get(name)!;
    const below = workspace({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((dep) => ORDER.indexOf(dep) >= ORDER.indexOf(name));
    expect(below).toEqual([]);
  });

  it.each([...manifests.keys()])('%s imports only what it declares (tests: devDependencies too)', (name) => {
    const { dir, manifest } = manifests.get(name)!;
    const runtime = new Set([name, ...workspace(manifest.dependencies), ...workspace(manifest.peerDependencies)]);
    const all = new Set([...runtime, ...workspace(manifest.devDependencies)]);
    const undeclared: string[] = [];
    for (const folder of ['src', 'scripts']) {
      if (!existsSync(join(dir, folder))) continue;
      for (const file of sources(join(dir, folder))) {
        const test = /\.test\.tsx?$|[\\/]testing[\\/]|\.test-helper\.ts$/.test(file) || folder === 'scripts';
        for (const dep of imports(file)) if (!(test ? all : runtime).has(dep)) undeclared.push(`${relative(ROOT, file)} imports ${dep}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('every changeset names packages of the workspace (changeset version would stop at a removed one)', () => {
    const unknown = readdirSync(join(ROOT, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md').flatMap((file) => {
      const text = readFileSync(join(ROOT, '.changeset', file), 'utf8');
      const head = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
      return [...head.matchAll(/^['"](@attnkit\/[a-z-]+)['"]:/gm)].map((m) => m[1]!).filter((name) => !manifests.has(name)).map((name) => `${file}: ${name}`);
    });
    expect(unknown).toEqual([]);
  });

  it('has no cycle, devDependencies included', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
        return;
      }
      state.set(name, 'visiting');
      const { manifest } = manifests.get(name)!;
      for (const dep of workspace({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies })) visit(dep, [...path, name]);
      state.set(name, 'done');
    };
    for (const name of manifests.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });
});
