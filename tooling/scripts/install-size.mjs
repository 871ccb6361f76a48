#!/usr/bin/env node
// The install size a consumer of the published @attnkit packages sees.
//
//   node tooling/scripts/install-size.mjs [--root <checkout>]... [--keep]
//
// For each checkout (default: this one; give --root twice to compare two commits, e.g. a
// `git worktree add /tmp/before <commit>` with its own `pnpm install --frozen-lockfile`):
//   1. builds the publishable packages (packages/*, not private) that have no dist/ yet (and
//      removes those dist/ folders again afterwards), and `pnpm pack`s each one as it is (pnpm
//      rewrites workspace: ranges) into a temporary folder; a failed build is reported, and the
//      package is packed with whatever its build emitted;
//   2. in a fresh project per scenario, `npm install`s the tarballs and the registry packages the
//      scenario names, with npm `overrides` pointing every @attnkit/* name at its local tarball
//      (they are not on the registry); npm adds required peers itself, never optional ones;
//   3. reports `du -sb node_modules` (MB = 10^6 bytes) and the number of installed packages.
// Needs pnpm, npm, du and the npm registry.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TFJS = '4.22.0';

/**
 * What a consumer installs: one @attnkit package with the @attnkit packages it depends on (as
 * tarballs), and the registry packages it must add itself.
 */
const SCENARIOS = [
  { name: 'masks', package: '@attnkit/masks', registry: [`@tensorflow/tfjs-core@${TFJS}`] },
  { name: 'bert on wasm', package: '@attnkit/bert', registry: [`@tensorflow/tfjs-core@${TFJS}`, `@tensorflow/tfjs-backend-wasm@${TFJS}`] },
];

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const roots = args.flatMap((arg, i) => (arg === '--root' ? [resolve(args[i + 1] ?? fail('--root needs a folder'))] : []));
if (roots.length === 0) roots.push(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));

function fail(message) {
  throw new Error(`install-size: ${message}`);
}

function run(command, commandArgs, cwd) {
  const result = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The publishable packages of a checkout: name -> { dir, manifest }. */
function publishablePackages(root) {
  const packages = new Map();
  for (const entry of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', entry, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = readJson(file);
    if (manifest.private !== true) packages.set(manifest.name, { dir: join(root, 'packages', entry), manifest });
  }
  return packages;
}

/** `name` and every @attnkit package it depends on (dependencies and peers), transitively. */
function withAttnkitDependencies(name, packages, seen = new Set()) {
  if (seen.has(name) || !packages.has(name)) return seen;
  seen.add(name);
  const { manifest } = packages.get(name);
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (dependency.startsWith('@attnkit/')) withAttnkitDependencies(dependency, packages, seen);
  }
  return seen;
}

/** The packages without dist/: name -> its dist folder. */
function withoutDist(packages) {
  return new Map([...packages].filter(([, { dir }]) => !existsSync(join(dir, 'dist'))).map(([name, { dir }]) => [name, join(dir, 'dist')]));
}

/** Builds `missing` (pnpm runs them in dependency order); returns notes on failures. */
function build(root, missing) {
  if (missing.size === 0) return [];
  console.error(`install-size: building ${[...missing.keys()].join(', ')} (no dist/) in ${root}`);
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

/** Packs every publishable package into `destination`; returns name -> tarball path. */
function packAll(packages, destination) {
  const tarballs = new Map();
  for (const [name, { dir }] of packages) {
    const before = new Set(readdirSync(destination));
    const packed = run('pnpm', ['pack', '--pack-destination', destination], dir);
    const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz') && !before.has(file));
    if (!packed.ok || tarball === undefined) fail(`pnpm pack failed for ${name}:\n${packed.output}`);
    tarballs.set(name, join(destination, tarball));
  }
  return tarballs;
}

/** Installs a scenario in a fresh project; returns its size and package count. */
function install(scenario, attnkitNames, tarballs, workDir) {
  const project = join(workDir, scenario.name.replace(/\W+/g, '-'));
  mkdirSync(project);
  const file = (name) => `file:${tarballs.get(name)}`;
  const dependencies = Object.fromEntries(attnkitNames.map((name) => [name, file(name)]));
  for (const spec of scenario.registry) {
    const at = spec.lastIndexOf('@');
    dependencies[spec.slice(0, at)] = spec.slice(at + 1);
  }
  const overrides = Object.fromEntries([...tarballs.keys()].map((name) => [name, file(name)]));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies, overrides }, null, 2));
  const installed = run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], project);
  if (!installed.ok) fail(`npm install failed for '${scenario.name}':\n${installed.output}`);
  const du = run('du', ['-sb', 'node_modules'], project);
  const bytes = Number(du.output.split(/\s/)[0]);
  const lock = readJson(join(project, 'package-lock.json'));
  const entries = Object.entries(lock.packages).filter(([path, entry]) => path.includes('node_modules/') && entry.link !== true);
  const tensorflow = entries.map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 13)).filter((n) => n.startsWith('@tensorflow/'));
  return { bytes, packages: entries.length, tensorflow: [...new Set(tensorflow)].sort() };
}

function measure(root, workDir) {
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no'], root).output !== '';
  const label = `${basename(root)}@${run('git', ['rev-parse', '--short', 'HEAD'], root).output}${dirty ? '+changes' : ''}`;
  const packages = publishablePackages(root);
  const missing = withoutDist(packages);
  const notes = build(root, missing);
  const tarballDir = join(workDir, 'tarballs');
  mkdirSync(tarballDir);
  let tarballs;
  try {
    tarballs = packAll(packages, tarballDir);
  } finally {
    for (const dist of missing.values()) rmSync(dist, { recursive: true, force: true }); // leave the checkout as it was
  }
  const results = SCENARIOS.map((scenario) => {
    const names = [...withAttnkitDependencies(scenario.package, packages)];
    return { scenario, names, ...install(scenario, names, tarballs, workDir) };
  });
  return { label, notes, results };
}

const work = mkdtempSync(join(tmpdir(), 'attnkit-install-size-'));
try {
  const measured = roots.map((root, i) => {
    const dir = join(work, String(i));
    mkdirSync(dir);
    return measure(root, dir);
  });
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  console.log(`| scenario | ${measured.map((m) => `${m.label}: node_modules MB | packages`).join(' | ')} |`);
  console.log(`| --- | ${measured.map(() => '---: | ---:').join(' | ')} |`);
  for (const [i, scenario] of SCENARIOS.entries()) {
    console.log(`| ${scenario.name} | ${measured.map((m) => `${mb(m.results[i].bytes)} | ${m.results[i].packages}`).join(' | ')} |`);
  }
  console.log('');
  for (const m of measured) {
    for (const r of m.results) console.log(`- ${m.label}, ${r.scenario.name}: ${r.names.join(', ')} + ${r.scenario.registry.join(', ')}; @tensorflow packages installed: ${r.tensorflow.join(', ')}`);
    for (const note of m.notes) console.log(`- ${m.label}: ${note}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  if (keep) console.error(`install-size: projects kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
