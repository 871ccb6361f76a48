// A/B of the BERT forward between this tree and another checkout (e.g. an export of main), interleaved: each round runs
// one fresh process per side (ab-forward.ts, which is copied into the other tree), in alternating order, and the ratio
// this / other is taken within the round; the report is the median ratio over rounds (a shared machine: ratios, not ms).
//   packages/cli/node_modules/.bin/tsx tooling/bench/src/int8-ab.ts --other /path/to/main-checkout [--rounds 6] [--runs 5] [--threads 2] [--float]
//   NODE_OPTIONS=--experimental-wasm-relaxed-simd ... (Node 20): both sides on the relaxed-SIMD int8 kernel, as Chromium.
// The other tree needs its dependencies installed (pnpm install); both read models/minilm-shaped of this tree.
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelDir } from './peer/paths.js';
import { median } from './peer/stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => { const i = args.indexOf(`--${name}`); return i < 0 ? fallback : (args[i + 1] as string); };
const other = option('other', '');
if (other === '') throw new Error('--other <checkout> is required (a tree with pnpm install done)');
const [rounds, runs, threads] = [Number(option('rounds', '6')), option('runs', '5'), option('threads', '2')];
const here = fileURLToPath(new URL('../../..', import.meta.url));
const script = 'tooling/bench/src/ab-forward.ts';
copyFileSync(join(here, script), join(other, script));
const side = (root: string) => {
  const run = spawnSync(join(root, 'tooling/bench/node_modules/.bin/tsx'), ['--conditions=@attnkit/source', join(root, script), '--model', modelDir, '--runs', runs, '--threads', threads, ...(args.includes('--float') ? ['--float'] : [])], { cwd: join(root, 'tooling/bench'), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${root}: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as { times: number[]; checksum: number };
};
const ratios: number[] = [];
const medians: { this: number[]; other: number[] } = { this: [], other: [] };
const checksums = new Set<string>();
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? (['other', 'this'] as const) : (['this', 'other'] as const);
  const got: Partial<Record<'this' | 'other', number>> = {};
  for (const which of order) {
    const { times, checksum } = side(which === 'this' ? here : other);
    got[which] = median(times);
    medians[which].push(got[which]);
    checksums.add(`${which} ${checksum}`);
  }
  ratios.push((got.this as number) / (got.other as number));
  console.log(`round ${round + 1}: other ${got.other?.toFixed(1)} ms, this ${got.this?.toFixed(1)} ms, ratio ${ratios.at(-1)?.toFixed(3)}`);
}
console.log(`\n${args.includes('--float') ? 'float32' : 'int8'}, ${threads} threads, NODE_OPTIONS ${process.env['NODE_OPTIONS'] ?? '(none)'}: this / other warm forward, median over ${rounds} rounds: ${median(ratios).toFixed(3)} (range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}); medians other ${median(medians.other).toFixed(1)} ms, this ${median(medians.this).toFixed(1)} ms; checksums ${[...checksums].join(', ')}`);
