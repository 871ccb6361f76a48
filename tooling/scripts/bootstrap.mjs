#!/usr/bin/env node
// One entry point for a fresh machine with only Node 20 and npm:
//   npm test       -> install pnpm + dependencies, then typecheck, lint and every test (Node + Chromium)
//   npm run demo   -> install pnpm + dependencies, then run the demo (npm run demo:web: the web page):
//                     the built attnkit command when the build is current, else its sources (tsx)
// It installs what it needs itself and reports the install time separately.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuild } from './stale-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [task, ...rest] = process.argv.slice(2);
const tasks = {
  test: ['run', 'test:all'],
  demo: null, // the attnkit command itself, built or from its sources (below)
  web: ['--filter', '@attnkit/demo', 'run', 'web'],
  bench: ['--filter', '@attnkit/bench', '--silent', 'bench'],
};
if (!(task in tasks)) fail(`usage: node tooling/scripts/bootstrap.mjs <${Object.keys(tasks).join('|')}> [args]`);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`attnkit needs Node >= 20.19; this is ${process.versions.node}.`);

const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager; // "pnpm@10.34.9"
const version = pinned.split('@')[1];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', COREPACK_ENABLE_STRICT: '0' };

// The pinned pnpm: the one on PATH if it is that version, else fetched once from the npm registry by
// npx. Looked up only when needed (asking pnpm its version takes a third of a second).
let pnpm;
function pnpmCommand() {
  if (pnpm !== undefined) return pnpm;
  const onPath = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env, shell: process.platform === 'win32' });
  pnpm = onPath.status === 0 && onPath.stdout.trim() === version ? ['pnpm'] : ['npx', '--yes', pinned];
  return pnpm;
}

function run(args, quiet = false, cwd = root) {
  const [command, ...prefix] = pnpmCommand();
  const result = spawnSync(command, [...prefix, ...args], {
    cwd,
    env,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0 && quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  return result.status ?? 1;
}

function fail(message) {
  console.error(`attnkit: ${message}`);
  process.exit(1);
}

// Install once: the manifests and the lockfile are hashed, and the install is skipped while the hash
// matches the one written after the last successful install (and node_modules is still there).
const manifests = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', ...['packages', 'apps', 'tooling'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(root, group, d.name, 'package.json'))).map((d) => join(group, d.name, 'package.json')))];
const hash = createHash('sha256');
for (const file of manifests.sort()) hash.update(`${file}\0${readFileSync(join(root, file))}\0`);
const digest = hash.digest('hex');
const stamp = join(root, 'node_modules', '.attnkit-install-stamp');
const installed = existsSync(join(root, 'node_modules', '.modules.yaml')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest;
if (!installed) {
  const started = performance.now();
  if (run(['install', '--frozen-lockfile', '--reporter=silent'], true) !== 0) fail('dependency install failed (see above).');
  writeFileSync(stamp, digest);
  console.error(`attnkit: dependencies ready in ${((performance.now() - started) / 1000).toFixed(1)} s (pnpm ${version}).`);
}
if (task !== 'demo') process.exit(run(tasks[task]));
// The attnkit command runs in the directory `npm run demo` was started from (npm says which in
// INIT_CWD), so relative paths mean what the user meant.
const cli = join(root, 'packages', 'cli');
const where = { cwd: process.env.INIT_CWD ?? process.cwd(), env, stdio: 'inherit' };
// The built command starts in about a quarter of the time tsx takes to compile the sources: run it
// when the build of the CLI and of every workspace package it depends on is newer than their sources.
const stale = staleBuild(root, '@attnkit/cli');
if (stale === undefined) process.exit(spawnSync(process.execPath, [join(cli, 'dist', 'cli.js'), ...rest], where).status ?? 1);
if (existsSync(join(cli, 'dist', 'cli.js'))) console.error(`attnkit: running from the sources (${stale}); npm run build makes npm run demo start from the build again.`);
// In Node, '@attnkit/backends/gradients' (imported by the trainer behind `attnkit train`) is a file
// the backends build makes; build it (and what it needs) once if this checkout has not yet.
if (!existsSync(join(root, 'packages', 'backends', 'dist', 'gradients', 'register-gradients.node.js'))) {
  const started = performance.now();
  if (run(['exec', 'turbo', 'run', 'build', '--filter=@attnkit/backends', '--output-logs=errors-only'], true) !== 0) fail('building @attnkit/backends failed (see above).');
  console.error(`attnkit: @attnkit/backends built in ${((performance.now() - started) / 1000).toFixed(1)} s (once).`);
}
// Otherwise the attnkit command runs from its TypeScript sources (no build needed but the one above).
const demo = spawnSync(join(cli, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx'), ['--conditions=@attnkit/source', join(cli, 'src', 'cli.ts'), ...rest], { ...where, shell: process.platform === 'win32' });
process.exit(demo.status ?? 1);
