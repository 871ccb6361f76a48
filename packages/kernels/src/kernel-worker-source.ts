/** Slots of the pool's control words (an Int32Array on a SharedArrayBuffer). */
export const CONTROL = {
  /** Bumped by the main thread for each job (and for stop); workers wait on it. */
  generation: 0,
  /** Workers that instantiated every module and wait for jobs. */
  ready: 1,
  /** Chunks of the current job done (by any thread). */
  done: 2,
  /** Index of the job's module, in the order the pool was given them. */
  module: 3,
  /** Byte offset of the job's words in that module's memory. */
  job: 4,
  /** How many chunks the job is split into; every thread claims chunks until none is left. */
  parts: 5,
  /** 1 once stop was asked: workers return. */
  stop: 6,
  /** 1 when a worker's part threw (a trap): the main thread reports it. */
  failed: 7,
  /** 1 when a worker could not start (instantiation failed). */
  startFailed: 8,
  /** The claim word: the job's tag (generation & 0x7fffff) in the high bits, the next unclaimed chunk in the low 8 bits. */
  next: 9,
  /** Microseconds a worker keeps checking for the next job before it sleeps (0: sleeps at once). */
  spin: 10,
  /** Number of words. */
  size: 11,
} as const;

/** What a worker is started with (Node `workerData`, or the first message in a browser). */
export interface KernelWorkerData {
  /** The threads variants of the kernel modules, compiled on the main thread. */
  readonly modules: readonly WebAssembly.Module[];
  /** Each module's shared memory (the main thread's instance uses the same one). */
  readonly memories: readonly WebAssembly.Memory[];
  /** This worker's stack top in each module's memory (-1: the module uses no stack). */
  readonly stacks: readonly number[];
  /** The control words' buffer. */
  readonly control: SharedArrayBuffer;
  /** This worker's number, 1 up (the main thread is 0): which stack it uses. */
  readonly index: number;
}

/**
 * The JavaScript a kernel worker runs (Node `worker_threads` with `eval: true`, or a browser
 * `Worker` from a Blob URL): instantiate each module on its shared memory with this worker's own
 * stack, then wait on the generation word; for each job, claim its chunks one at a time (as the
 * calling thread does) and run `run_part(job, chunk, chunks)` of the job's module, counting each
 * chunk done. After a job it keeps checking for the next one for `spin` microseconds (when the
 * last one came within that) before it sleeps. Plain JavaScript in a
 * string so that bundlers and test runners pass it through untouched.
 */
export const KERNEL_WORKER_SOURCE = `'use strict';
const C = ${JSON.stringify(CONTROL)};
function start(data) {
  const ctl = new Int32Array(data.control);
  let runs;
  try {
    runs = data.modules.map((module, m) => {
      const instance = new WebAssembly.Instance(module, { env: { memory: data.memories[m] } });
      if (data.stacks[m] >= 0) instance.exports.__stack_pointer.value = data.stacks[m]; // -1: a module without a stack (on tfjs-wasm's memory)
      return instance.exports.run_part;
    });
  } catch (error) {
    Atomics.store(ctl, C.startFailed, 1);
    Atomics.notify(ctl, C.ready);
    throw error;
  }
  let seen = Atomics.load(ctl, C.generation);
  Atomics.add(ctl, C.ready, 1);
  Atomics.notify(ctl, C.ready);
  let spinning = true; // whether the last job came within the spin window after the one before
  for (;;) {
    let generation = Atomics.load(ctl, C.generation);
    const spin = Atomics.load(ctl, C.spin) / 1000;
    const idle = performance.now();
    if (generation === seen && spin > 0 && spinning) { // the jobs of a decoding step come microseconds apart; a sleeping thread takes ~30 µs to wake
      for (let i = 1; generation === seen; i++) {
        if ((i & 63) === 0 && performance.now() - idle > spin) break;
        generation = Atomics.load(ctl, C.generation);
      }
    }
    if (generation === seen) {
      Atomics.wait(ctl, C.generation, seen);
      generation = Atomics.load(ctl, C.generation);
      if (generation === seen) continue;
    }
    spinning = performance.now() - idle <= spin; // jobs far apart (a sleep would not have cost their hand-off): sleep at once next time
    seen = generation;
    if (Atomics.load(ctl, C.stop) !== 0) return;
    const parts = Atomics.load(ctl, C.parts); // a hint: the job's words are read again once a chunk is claimed
    const tag = (seen & 0x7fffff) << 8;
    for (;;) { // claim chunks of this job (its tag) until none is left; a later job's tag stops the loop
      const word = Atomics.load(ctl, C.next);
      const chunk = word & 0xff;
      if ((word & ~0xff) !== tag || chunk >= parts) break;
      if (Atomics.compareExchange(ctl, C.next, word, word + 1) !== word) continue;
      // a chunk is claimed: its job cannot end (nor its words change) before the chunk is counted done
      const claimed = Atomics.load(ctl, C.parts);
      if (chunk >= claimed) break; // past that job's end (a tag that wrapped around): nothing to run
      try {
        runs[Atomics.load(ctl, C.module)](Atomics.load(ctl, C.job), chunk, claimed);
      } catch (error) {
        Atomics.store(ctl, C.failed, 1);
      }
      if (Atomics.add(ctl, C.done, 1) + 1 === claimed) Atomics.notify(ctl, C.done);
    }
  }
}
if (typeof require === 'function') start(require('node:worker_threads').workerData);
else self.onmessage = (event) => { self.onmessage = null; start(event.data); };
`;
