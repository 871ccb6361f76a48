#!/usr/bin/env node
// Installs ONNX Runtime (onnxruntime-node, onnxruntime-web) for `pnpm bench` into tooling/bench/onnx, from that
// folder's own lockfile. It is not part of the workspace install (~450 MB that only the bench uses);
// tooling/bench links onnx/node_modules/onnxruntime-{node,web} (link: dependencies), so the bench imports them by name.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', 'onnx');
// The pnpm running this script (npm_execpath when started by `pnpm run`), else the one on PATH.
const execpath = process.env.npm_execpath;
const [command, ...prefix] = execpath && /\.[cm]?js$/.test(execpath) ? [process.execPath, execpath] : ['pnpm'];
const started = performance.now();
const result = spawnSync(command, [...prefix, 'install', '--dir', folder, '--ignore-workspace', '--frozen-lockfile', '--reporter=silent'], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (result.status !== 0) {
  console.error(`attnkit bench: installing ONNX Runtime into ${folder} failed (see above).`);
  process.exit(result.status ?? 1);
}
console.error(`attnkit bench: ONNX Runtime ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${folder}).`);
