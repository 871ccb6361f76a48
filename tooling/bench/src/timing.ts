import type { Tensor } from '@tensorflow/tfjs-core';

/** Runs `once` for a warm-up, then `runs` more times; returns each timed run in ms. */
export async function warmTimes(once: () => Promise<unknown>, runs: number): Promise<number[]> {
  await once();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  }
  return times;
}

/** Probes: prints the median ms of `fn` (its output read back and disposed) after two warm-ups. */
export async function printMedian(label: string, fn: () => Tensor, runs = 7): Promise<void> {
  const once = async (): Promise<void> => {
    const y = fn();
    await y.data();
    y.dispose();
  };
  await once();
  const times = (await warmTimes(once, runs)).sort((a, b) => a - b);
  console.log(`${label.padEnd(64)} ${times[Math.floor(runs / 2)]!.toFixed(2)} ms`);
}
