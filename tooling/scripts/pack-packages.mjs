// Packs the publishable @attnkit packages as npm would publish them, and writes consumer projects
// that install those tarballs. Used by install-size.mjs and by tooling/consumers' tests.
//
//   const { tarballs, notes } = packPackages(root, destination);
//   writeConsumerProject(project, { attnkit: ['@attnkit/sentence'], registry: { '@tensorflow/tfjs-core': '4.22.0' }, tarballs });
//   npmInstall(project);
//
// Packages without dist/ are built first (pnpm, in dependency order) and their dist/ removed
// again afterwards, so the checkout is left as it was. `pnpm pack` rewrites workspace: ranges; the
// consumer's npm `overrides` point every @attnkit/* name at its local tarball (they are not on the
// registry). Needs pnpm and npm; npm install needs the registry.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Runs a command; `ok` and stdout + stderr together. npm's update notifier stays quiet. */
export function run(command, commandArgs, cwd, env = {}) {
  const result = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', ...env } });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
  return { ok: result.status === 0, status: result.status, stdout: result.stdout ?? '', output };
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The publishable packages of a checkout (packages/*, not private): name -> { dir, manifest }. */
export function publishablePackages(root) {
  const packages = new Map();
  for (const entry of readdirSync(join(root, 'packages')).sort()) {
    const file = join(root, 'packages', entry, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = readJson(file);
    if (manifest.private !== true) packages.set(manifest.name, { dir: join(root, 'packages', entry), manifest });
  }
  return packages;
}

/** `name` and every @attnkit package it depends on (dependencies and peers), transitively. */
export function withAttnkitDependencies(name, packages, seen = new Set()) {
  if (seen.has(name) || !packages.has(name)) return seen;
  seen.add(name);
  const { manifest } = packages.get(name);
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (dependency.startsWith('@attnkit/')) withAttnkitDependencies(dependency, packages, seen);
  }
  return seen;
}

/** Builds `missing` (name -> dist folder; pnpm runs them in dependency order); returns notes on failures. */
function build(root, missing) {
  if (missing.size === 0) return [];
  console.error(`pack-packages: building ${[...missing.keys()].join(', ')} (no dist/) in ${root}`);
  const built = run('pnpm', ['--no-bail', ...[...missing.keys()].flatMap((name) => ['--filter', name]), 'build'], root);
  if (built.ok) return [];
  console.error(built.output.split('\n').filter((line) => /error TS|Failed|ERR_/.test(line)).slice(0, 20).join('\n'));
  const failed = [...built.output.matchAll(/^(\S+) build: Failed/gm)].map((m) => basename(m[1]));
  const srcOnly = [...missing].filter(([, dist]) => !existsSync(dist)).map(([name]) => name);
  return [
    `build failed in ${failed.length > 0 ? failed.join(', ') : root}: packed with whatever dist/ it emitted` +
      (srcOnly.length > 0 ? `; ${srcOnly.join(', ')} packed with src/ only` : ''),
  ];
}

/**
 * Builds the publishable packages of `root` that have no dist/ (removed again afterwards) and
 * `pnpm pack`s every one into `destination`. Returns `tarballs` (name -> tarball path) and `notes`
 * (failed builds; the package is then packed with whatever its build emitted). A failed pack throws.
 */
export function packPackages(root, destination) {
  const packages = publishablePackages(root);
  const missing = new Map([...packages].filter(([, { dir }]) => !existsSync(join(dir, 'dist'))).map(([name, { dir }]) => [name, join(dir, 'dist')]));
  const notes = build(root, missing);
  const tarballs = new Map();
  try {
    for (const [name, { dir }] of packages) {
      const before = new Set(readdirSync(destination));
      const packed = run('pnpm', ['pack', '--pack-destination', destination], dir);
      const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz') && !before.has(file));
      if (!packed.ok || tarball === undefined) throw new Error(`pack-packages: pnpm pack failed for ${name}:\n${packed.output}`);
      tarballs.set(name, join(destination, tarball));
    }
  } finally {
    for (const dist of missing.values()) rmSync(dist, { recursive: true, force: true }); // leave the checkout as it was
  }
  return { packages, tarballs, notes };
}

/**
 * Writes `project/package.json` for a consumer: the `attnkit` names as `file:` tarball
 * dependencies, `registry` (name -> version) as they are, and npm `overrides` pointing every
 * packed @attnkit name at its tarball.
 */
export function writeConsumerProject(project, { attnkit, registry = {}, tarballs }) {
  const file = (name) => {
    if (!tarballs.has(name)) throw new Error(`pack-packages: no tarball for ${name} (packed: ${[...tarballs.keys()].join(', ')})`);
    return `file:${tarballs.get(name)}`;
  };
  const dependencies = { ...Object.fromEntries(attnkit.map((name) => [name, file(name)])), ...registry };
  const overrides = Object.fromEntries([...tarballs.keys()].map((name) => [name, file(name)]));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies, overrides }, null, 2));
}

/** `npm install` in `project`, with `extraArgs`; throws with npm's output when it fails. */
export function npmInstall(project, extraArgs = []) {
  const installed = run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...extraArgs], project);
  if (!installed.ok) throw new Error(`pack-packages: npm install failed in ${project}:\n${installed.output}`);
  return installed;
}
