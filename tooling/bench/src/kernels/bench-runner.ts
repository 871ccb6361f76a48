// What the kernel benchmarks (bench-int8.ts, bench-f32.ts) share: timing a set of engines against
// tfjs-wasm, and running the measurement once per thread count. tfjs-wasm's thread count is fixed
// when the backend starts, so each count runs in its own process (the script re-runs itself, with
// --experimental-wasm-relaxed-simd for Node 20).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Timed runs per engine (BENCH_RUNS, default 9). */
export const RUNS = Number(process.env['BENCH_RUNS'] ?? 9);
/** The thread count of this process's measurement, or 0 in the parent. */
export const BENCH_THREADS = Number(process.env['BENCH_THREADS'] ?? 0);

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const time = (fn: () => unknown) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

/**
 * Median ms of each engine, the first being tfjs-wasm: after one warm-up each, tfjs runs on its own
 * first (right after one of its matMuls its pthreads spin on the cores for a while and would slow
 * the kernels' threads), then, after a pause, the others interleaved among themselves.
 */
export async function medianTimes(engines: Record<string, () => unknown>): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(engines).map((e) => [e, []]));
  for (const fn of Object.values(engines)) fn(); // warm-up: compile, grow memory, pack kept weights
  const [first, ...others] = Object.entries(engines);
  const [tfjsName, tfjsRun] = first!;
  for (let r = 0; r < RUNS; r++) times[tfjsName]!.push(time(tfjsRun));
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let r = 0; r < RUNS; r++) for (const [engine, fn] of others) times[engine]!.push(time(fn));
  return Object.fromEntries(Object.entries(times).map(([engine, ts]) => [engine, median(ts)]));
}

/**
 * In a child (BENCH_THREADS set): prints `measure()`'s rows as JSON and returns undefined. In the
 * parent: runs `script` once per thread count (1, 2) and returns all their rows.
 */
export async function perThreadCount<Row>(scriptUrl: string, measure: () => Promise<Row[]>): Promise<Row[] | undefined> {
  if (BENCH_THREADS > 0) {
    process.stdout.write(`${JSON.stringify(await measure())}\n`);
    return undefined;
  }
  const flags = [...process.execArgv, '--experimental-wasm-relaxed-simd'];
  const rows: Row[] = [];
  for (const count of [1, 2]) {
    const child = spawnSync(process.execPath, [...flags, fileURLToPath(scriptUrl)], { env: { ...process.env, BENCH_THREADS: String(count) }, encoding: 'utf8', maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`bench child (${count} threads) failed:\n${child.stderr}`);
    rows.push(...(JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Row[]));
  }
  return rows;
}
