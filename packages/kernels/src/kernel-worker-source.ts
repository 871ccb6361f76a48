/** Slots of the pool's control words (an Int32Array on a SharedArrayBuffer). */
export const CONTROL = {
  /** Bumped by the main thread for each job (and for stop); workers wait on it. */
  generation: 0,
  /** Workers that instantiated every module and wait for jobs. */
  ready: 1,
  /** Workers done with the current job. */
  done: 2,
  /** Index of the job's module, in the order the pool was given them. */
  module: 3,
  /** Byte offset of the job's words in that module's memory. */
  job: 4,
  /** How many parts the job is split into (the main thread runs part 0, worker w part w). */
  parts: 5,
  /** 1 once stop was asked: workers return. */
  stop: 6,
  /** 1 when a worker's part threw (a trap): the main thread reports it. */
  failed: 7,
  /** 1 when a worker could not start (instantiation failed). */
  startFailed: 8,
  /** Number of words. */
  size: 9,
} as const;

/** What a worker is started with (Node `workerData`, or the first message in a browser). */
export interface KernelWorkerData {
  /** The threads variants of the kernel modules, compiled on the main thread. */
  readonly modules: readonly WebAssembly.Module[];
  /** Each module's shared memory (the main thread's instance uses the same one). */
  readonly memories: readonly WebAssembly.Memory[];
  /** This worker's stack top in each module's memory. */
  readonly stacks: readonly number[];
  /** The control words' buffer. */
  readonly control: SharedArrayBuffer;
  /** This worker's part number, 1 up (the main thread is part 0). */
  readonly index: number;
}

/**
 * The JavaScript a kernel worker runs (Node `worker_threads` with `eval: true`, or a browser
 * `Worker` from a Blob URL): instantiate each module on its shared memory with this worker's own
 * stack, then wait on the generation word; for each job whose parts include this worker, run
 * `run_part(job, index, parts)` of the job's module and count itself done. Plain JavaScript in a
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
      instance.exports.__stack_pointer.value = data.stacks[m];
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
  for (;;) {
    Atomics.wait(ctl, C.generation, seen);
    const generation = Atomics.load(ctl, C.generation);
    if (generation === seen) continue;
    seen = generation;
    if (Atomics.load(ctl, C.stop) !== 0) return;
    const parts = Atomics.load(ctl, C.parts);
    if (data.index >= parts) continue;
    try {
      runs[Atomics.load(ctl, C.module)](Atomics.load(ctl, C.job), data.index, parts);
    } catch (error) {
      Atomics.store(ctl, C.failed, 1);
    }
    if (Atomics.add(ctl, C.done, 1) + 1 === parts - 1) Atomics.notify(ctl, C.done);
  }
}
if (typeof require === 'function') start(require('node:worker_threads').workerData);
else self.onmessage = (event) => { self.onmessage = null; start(event.data); };
`;
