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
// Needs pnpm, npm, du and the npm registry. Packing and the consumer projects: ./pack-packages.mjs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstall, packPackages, run, withAttnkitDependencies, writeConsumerProject } from './pack-packages.mjs';

const TFJS = '4.22.0';

/**
 * What a consumer installs: one @attnkit package with the @attnkit packages it depends on (as
 * tarballs), and the registry packages it must add itself.
 */
const SCENARIOS = [
  { name: 'tokenizers', package: '@attnkit/tokenizers', registry: [] },
  { name: 'masks', package: '@attnkit/masks', registry: [`@tensorflow/tfjs-core@${TFJS}`] },
  { name: 'models on wasm', package: '@attnkit/models', registry: [`@tensorflow/tfjs-core@${TFJS}`, `@tensorflow/tfjs-backend-wasm@${TFJS}`] },
];

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const roots = args.flatMap((arg, i) => (arg === '--root' ? [resolve(args[i + 1] ?? fail('--root needs a folder'))] : []));
if (roots.length === 0) roots.push(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));

function fail(message) {
  throw new Error(`install-size: ${message}`);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Installs a scenario in a fresh project; returns its size and package count. */
function install(scenario, attnkitNames, tarballs, workDir) {
  const project = join(workDir, scenario.name.replace(/\W+/g, '-'));
  mkdirSync(project);
  const registry = Object.fromEntries(scenario.registry.map((spec) => [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)]));
  writeConsumerProject(project, { attnkit: attnkitNames, registry, tarballs });
  npmInstall(project, ['--ignore-scripts']);
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
  const tarballDir = join(workDir, 'tarballs');
  mkdirSync(tarballDir);
  const { packages, tarballs, notes } = packPackages(root, tarballDir);
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
