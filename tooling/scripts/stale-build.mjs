// Whether a workspace package's build (dist/) is current: `npm run demo` starts the built attnkit
// command (about 1 s sooner than tsx on the sources) only when it is, and falls back to the sources
// otherwise. Plain Node, no dependency: it runs before anything is installed or built.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The workspace packages under `root/packages`: name → folder and manifest. */
function workspacePackages(root) {
  const packages = new Map();
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    const dir = join(root, 'packages', entry.name);
    if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    packages.set(manifest.name, { dir, manifest });
  }
  return packages;
}

/** `name` and every workspace package it runs with: its `workspace:` dependencies, transitively (not devDependencies). */
function withDependencies(name, packages, seen = new Set()) {
  if (seen.has(name) || !packages.has(name)) return seen;
  seen.add(name);
  for (const [dependency, version] of Object.entries(packages.get(name).manifest.dependencies ?? {})) {
    if (String(version).startsWith('workspace:')) withDependencies(dependency, packages, seen);
  }
  return seen;
}

/** The built files a package is loaded by: every ./dist/*.js its `exports` and `bin` name. */
function builtEntries(dir, manifest) {
  const paths = [];
  const collect = (value) => {
    if (typeof value === 'string') {
      if (/^\.\/dist\/.*\.js$/.test(value)) paths.push(join(dir, value));
    } else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  collect(manifest.exports);
  collect(manifest.bin);
  return [...new Set(paths)];
}

/** The newest of a package's build inputs (as turbo.json's build inputs, tests left out): src/** but *.test.ts, package.json, tsconfig*.json. */
function newestInput(dir) {
  let newest = { path: '', mtimeMs: -Infinity };
  const consider = (path) => {
    const { mtimeMs } = statSync(path);
    if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  };
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!/\.test\.tsx?$/.test(entry.name)) consider(path);
    }
  };
  if (existsSync(join(dir, 'src'))) walk(join(dir, 'src'));
  for (const file of readdirSync(dir)) if (file === 'package.json' || /^tsconfig.*\.json$/.test(file)) consider(join(dir, file));
  return newest;
}

/**
 * Why the build of workspace package `name` cannot be run as it is, or `undefined` when it can:
 * for `name` and every workspace package it depends on, every built entry point (the dist/*.js
 * files its `exports` and `bin` name) must exist and be newer than every build input of that
 * package (src/** but tests, package.json, tsconfig*.json). A checkout, a pull or an edit makes a
 * source newer, so the sources run until the next `pnpm build`.
 *
 * @example
 * staleBuild(root, '@attnkit/cli'); // undefined, or 'packages/cli/dist/cli.js is missing (not built yet)'
 */
export function staleBuild(root, name) {
  const packages = workspacePackages(root);
  if (!packages.has(name)) return `${name} is not a package of ${root}`;
  for (const each of withDependencies(name, packages)) {
    const { dir, manifest } = packages.get(each);
    const entries = builtEntries(dir, manifest);
    if (entries.length === 0) return `${each} names no dist/*.js in its exports`;
    const missing = entries.find((path) => !existsSync(path));
    if (missing !== undefined) return `${relative(root, missing)} is missing (not built yet)`;
    const built = Math.min(...entries.map((path) => statSync(path).mtimeMs));
    const newest = newestInput(dir);
    if (newest.mtimeMs > built) return `${relative(root, newest.path)} is newer than the build of ${each}`;
  }
  return undefined;
}
