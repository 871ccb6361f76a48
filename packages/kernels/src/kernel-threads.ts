import { detectEnvironment, nodeBuiltin, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { decodeBase64 } from './decode-base64.js';
import { CONTROL, KERNEL_WORKER_SOURCE, type KernelWorkerData } from './kernel-worker-source.js';
import { FUSED_ATTENTION_THREADS_WASM } from './wasm/fused-attention.wasm.js';
import { INT8_GEMM_RELAXED_SIMD_THREADS_WASM } from './wasm/int8-gemm-relaxed-simd.wasm.js';
import { INT8_GEMM_RELAXED_DOT_ADD_THREADS_WASM } from './wasm/int8-gemm-relaxed-dot-add.wasm.js';
import { INT8_GEMM_SIMD_THREADS_WASM } from './wasm/int8-gemm-simd.wasm.js';
import { F32_GEMM_RELAXED_SIMD_THREADS_WASM } from './wasm/f32-gemm-relaxed-simd.wasm.js';
import { F32_GEMM_SIMD_THREADS_WASM } from './wasm/f32-gemm-simd.wasm.js';

/** The most threads the kernels use (stacks are reserved for this many in every module's memory). */
export const MAX_KERNEL_THREADS = 16;
/** The most chunks a job is cut into: a kernel that keeps scratch per part (fused attention) reserves this many. */
export const MAX_KERNEL_CHUNKS = 16;
const STACK = 65536; // bytes of stack per worker instance (the kernels use well under 1 KiB)
const PAGE = 65536;
const MAX_PAGES = 32768; // 2 GiB: the threads variants declare this maximum
const START_TIMEOUT_MS = 10_000;
const WAIT_TIMEOUT_MS = 120_000; // a part that never reports done: a worker died

/** The kernel modules that run on threads, by name. */
export type ThreadedModuleName = 'int8-gemm-simd' | 'int8-gemm-relaxed-simd' | 'int8-gemm-relaxed-dot-add' | 'f32-gemm-simd' | 'f32-gemm-relaxed-simd' | 'fused-attention';
const THREADED_SOURCES: Record<ThreadedModuleName, string> = {
  'int8-gemm-simd': INT8_GEMM_SIMD_THREADS_WASM,
  'int8-gemm-relaxed-simd': INT8_GEMM_RELAXED_SIMD_THREADS_WASM,
  'int8-gemm-relaxed-dot-add': INT8_GEMM_RELAXED_DOT_ADD_THREADS_WASM,
  'f32-gemm-simd': F32_GEMM_SIMD_THREADS_WASM,
  'f32-gemm-relaxed-simd': F32_GEMM_RELAXED_SIMD_THREADS_WASM,
  'fused-attention': FUSED_ATTENTION_THREADS_WASM,
};

/** What every threads-variant module exports (pointers are byte offsets in its memory). */
interface RunPartExports {
  run_part(job: number, part: number, parts: number): void;
  heap_base(): number;
}

/**
 * One kernel module instantiated on the main thread over a shared memory that the workers'
 * instances share: drivers lay out their operands from `base` and call {@link run}.
 */
export interface SharedKernelInstance<E> {
  readonly exports: E;
  readonly memory: WebAssembly.Memory;
  /** First byte free for operands (above the data, the main stack and the worker stacks), 16-aligned. */
  readonly base: number;
  /** Threads a job is split over now (1 until the workers are ready, or with one thread). */
  parts(): number;
  /**
   * Runs `run_part(job, part, parts)` for every part (chunk), claimed by whichever thread comes
   * first, the calling one included; returns when all are done. `work` (the job's multiply-adds,
   * default unbounded): below {@link SMALL_JOB_WORK} the job runs as one part on the calling thread.
   */
  run(job: number, work?: number): void;
}

/** What {@link kernelThreads} reports. */
export interface KernelThreadsReport {
  /** Threads a kernel call is split over right now (the calling thread included); 1 = single-threaded. */
  readonly threads: number;
  /** Threads asked for (`startKernelThreads`), or the default: the logical cores, at most 4. */
  readonly requested: number;
  /** `'ready'`: workers wait for jobs; `'starting'`: not yet (calls run single-threaded meanwhile); `'off'`: none. */
  readonly state: 'off' | 'starting' | 'ready';
  /** Why the kernels run single-threaded, when they do. */
  readonly reason?: string;
}

/** Options of {@link startKernelThreads}. */
export interface StartKernelThreadsOptions {
  /** Threads to split each kernel call over, the calling one included: 1 to 16. Default: the logical cores, at most 4. */
  readonly threads?: number;
}

interface Module {
  readonly name: ThreadedModuleName;
  readonly instance: SharedKernelInstance<RunPartExports>;
  readonly module: WebAssembly.Module;
  readonly heapBase: number;
}

interface Workers {
  readonly control: Int32Array;
  readonly handles: { terminate(): unknown }[];
  readonly canWait: boolean;
  state: 'starting' | 'ready' | 'failed';
  reason?: string;
}

let modules: Map<ThreadedModuleName, Module> | undefined;
/** A module on another shared memory (tfjs-wasm's, for the fills): the workers' last module when set. */
let external: { readonly module: WebAssembly.Module; readonly memory: WebAssembly.Memory } | undefined;
let unavailable: string | undefined; // why there are no shared modules at all
let requested: number | undefined;
let workers: Workers | undefined;

function logicalCores(): number {
  if (detectEnvironment() === 'node') return nodeBuiltin('node:os').availableParallelism();
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1;
}

function defaultThreads(): number {
  return Math.max(1, Math.min(4, logicalCores()));
}

/**
 * The kernel workers started when no count is given: one per logical core, at most 4 (2 on a
 * 2-core machine). `useBackend('wasm')` gives tfjs' own pool the cores these leave (at least 1).
 *
 * @example
 * defaultKernelThreads(); // 2 on a 2-core machine, 4 on an 8-core one
 */
export function defaultKernelThreads(): number {
  return defaultThreads();
}

/** Why this realm cannot run the kernels on threads, or undefined when it can. */
function threadingUnavailable(): string | undefined {
  if (typeof SharedArrayBuffer === 'undefined') return 'SharedArrayBuffer is unavailable here (a web page must be cross-origin isolated: Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)';
  if ((globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false) return 'the page is not cross-origin isolated (Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), so memory cannot be shared with workers';
  if (detectEnvironment() !== 'node' && typeof Worker === 'undefined') return 'this realm has no Worker';
  return undefined;
}

function loadModules(): Map<ThreadedModuleName, Module> | undefined {
  if (modules !== undefined || unavailable !== undefined) return modules;
  unavailable = threadingUnavailable();
  if (unavailable !== undefined) return undefined;
  const loaded = new Map<ThreadedModuleName, Module>();
  try {
    for (const [name, base64] of Object.entries(THREADED_SOURCES) as [ThreadedModuleName, string][]) {
      const bytes = decodeBase64(base64);
      if (!WebAssembly.validate(bytes)) continue; // e.g. relaxed SIMD on an engine without it
      const module = new WebAssembly.Module(bytes);
      const memory = new WebAssembly.Memory({ initial: 32, maximum: MAX_PAGES, shared: true }); // data + main stack + worker stacks: about 1 MiB
      const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as RunPartExports;
      const heapBase = exports.heap_base();
      const base = Math.ceil((heapBase + (MAX_KERNEL_THREADS - 1) * STACK) / 16) * 16;
      const missing = Math.ceil((base + PAGE) / PAGE) - memory.buffer.byteLength / PAGE;
      if (missing > 0) memory.grow(missing);
      const index = loaded.size; // its place in the list the workers get (spawn: loaded.values(), in order)
      const instance: SharedKernelInstance<RunPartExports> = { exports, memory, base, parts: () => currentParts(), run: (job, work = Infinity) => runJob(index, exports, job, work) };
      loaded.set(name, { name, instance, module, heapBase });
    }
  } catch (cause) {
    unavailable = `the threads variants of the kernels do not instantiate here: ${String(cause)}`;
    return undefined;
  }
  modules = loaded;
  return modules;
}

/**
 * The main thread's instance of a kernel module on shared memory, or undefined when this realm
 * cannot share memory with workers (then the drivers use their own single-threaded instances).
 * Starts the default workers on first use.
 */
export function sharedKernelInstance<E>(name: ThreadedModuleName): SharedKernelInstance<E & RunPartExports> | undefined {
  const found = loadModules()?.get(name);
  if (found === undefined) return undefined;
  if (workers === undefined && requested === undefined) spawn(defaultThreads());
  return found.instance as SharedKernelInstance<E & RunPartExports>;
}

function currentParts(): number {
  if (workers === undefined) return 1;
  if (workers.state === 'starting') {
    const ready = Atomics.load(workers.control, CONTROL.ready);
    if (Atomics.load(workers.control, CONTROL.startFailed) !== 0) fail(workers, 'a kernel worker failed to start (instantiating the modules threw)');
    else if (ready === workers.handles.length) workers.state = 'ready';
  }
  return workers.state === 'ready' ? workers.handles.length + 1 : 1;
}

function fail(pool: Workers, reason: string): void {
  pool.state = 'failed';
  pool.reason = reason;
  stopWorkers(pool);
}

function stopWorkers(pool: Workers): void {
  Atomics.store(pool.control, CONTROL.stop, 1);
  Atomics.add(pool.control, CONTROL.generation, 1);
  Atomics.notify(pool.control, CONTROL.generation);
  for (const handle of pool.handles) void handle.terminate();
}

/**
 * Multiply-adds below which a job runs on the calling thread alone (the unit is an int8 multiply-add:
 * a float32 product counts each of its own as `F32_WORK_PER_MULTIPLY_ADD`, 4). Every product of a
 * decoding step is above it: the calling thread starts on a job's chunks at once and a worker
 * joins when it is awake, so splitting never waits for a sleeping worker, and workers stay awake
 * for {@link KERNEL_SPIN_MICROSECONDS} after a job, which the next product of a step comes within.
 * Node, 2 cores, 2 kernel threads, a SmolLM-135M-shaped int8 decoding step: about 11.8 → 9.8 ms
 * against whole 576-wide products on the calling thread (their old threshold, 2²³).
 */
export const SMALL_JOB_WORK = 2 ** 16;

/**
 * How long a kernel worker keeps checking for the next job after one, in microseconds, before it
 * sleeps: waking a sleeping thread takes about 30 µs on a 2-core VM, as long as a 576-wide
 * product. A worker whose last wait was longer than this sleeps at once next time, so jobs far
 * apart (an encoder's products, idle time) do not keep a core busy; with more threads than
 * logical cores workers sleep at once.
 */
export const KERNEL_SPIN_MICROSECONDS = 200;

/** Chunks per thread a job of at least {@link BALANCED_JOB_WORK} is cut into (at most 16 in all): a thread that is late takes fewer. */
const CHUNKS_PER_THREAD = 4;

/**
 * Multiply-adds from which a split job is cut into 4 chunks per thread, so that a late or slower
 * thread takes fewer; below it, into one chunk per thread (a worker that is not there in time
 * leaves its chunk to the calling thread). A decoding step's products are below it: each chunk
 * costs a claim on the shared control word and restarts a thread's stream through the weights.
 * Node, 2 cores, 2 kernel threads, the same process alternating (median step): SmolLM-shaped int8
 * 8.2–8.6 → 7.6–8.0 ms at batch 1, 14.1–14.9 → 13.3–14.1 ms at batch 4; a 128-token prefill the same.
 */
export const BALANCED_JOB_WORK = 2 ** 24;
let smallJobWork = SMALL_JOB_WORK;

/** Runs `fn` with jobs split among the threads down to `work` multiply-adds (tests: 0 splits every job, as the kernels' thread cases need). */
export function withSmallJobWork<T>(work: number, fn: () => T): T {
  const before = smallJobWork;
  smallJobWork = work;
  try {
    return fn();
  } finally {
    smallJobWork = before;
  }
}

/**
 * Runs a job of the module at `index` (its place in the workers' module list): split into chunks
 * that every thread claims until none is left, this one included, so the calling thread never
 * waits for a worker to wake (one part below {@link SMALL_JOB_WORK}).
 */
function runJob(index: number, exports: RunPartExports, job: number, work: number, units = Infinity): void {
  const threads = currentParts();
  if (threads === 1 || workers === undefined || work < smallJobWork) {
    exports.run_part(job, 0, 1);
    return;
  }
  const control = workers.control;
  const parts = Math.max(1, Math.min(MAX_KERNEL_CHUNKS, units !== Infinity ? units : threads * (work >= BALANCED_JOB_WORK ? CHUNKS_PER_THREAD : 1))); // a job of few whole pieces: one chunk each
  const generation = (Atomics.load(control, CONTROL.generation) + 1) | 0;
  const tag = (generation & 0x7fffff) << 8;
  Atomics.store(control, CONTROL.module, index);
  Atomics.store(control, CONTROL.job, job);
  Atomics.store(control, CONTROL.parts, parts);
  Atomics.store(control, CONTROL.done, 0);
  Atomics.store(control, CONTROL.next, tag);
  Atomics.store(control, CONTROL.generation, generation);
  Atomics.notify(control, CONTROL.generation);
  let [ran, trapped]: [number, { error: unknown } | undefined] = [0, undefined];
  for (;;) {
    const chunk = Atomics.add(control, CONTROL.next, 1) & 0xff; // nobody else writes this job's word past `parts`
    if (chunk >= parts) break;
    ran++;
    try {
      exports.run_part(job, chunk, parts);
    } catch (error) { // a trap on this thread: the chunks left are dropped, the workers' own finish before the job's words are given up
      trapped = { error };
      ran += Math.max(0, parts - (Atomics.add(control, CONTROL.next, parts) & 0xff)); // unclaimed, and now never claimed: counted done
      break;
    }
  }
  if (ran > 0 && Atomics.add(control, CONTROL.done, ran) + ran === parts && trapped === undefined) return finishJob(workers);
  const started = performance.now();
  for (let spins = 0; ; spins++) {
    const done = Atomics.load(control, CONTROL.done);
    if (done >= parts) break;
    if ((spins & 1023) === 1023) {
      if (performance.now() - started > WAIT_TIMEOUT_MS) {
        fail(workers, `a kernel worker did not finish its part within ${WAIT_TIMEOUT_MS / 1000} s`);
        throw new Error(`attnkit kernels: a worker did not finish its part within ${WAIT_TIMEOUT_MS / 1000} s; the kernels run single-threaded from now on`);
      }
      if (workers.canWait) Atomics.wait(control, CONTROL.done, done, 1);
    }
  }
  if (trapped !== undefined) {
    if (Atomics.load(control, CONTROL.failed) !== 0) fail(workers, 'a kernel worker trapped while running its part');
    throw trapped.error;
  }
  finishJob(workers);
}

function finishJob(pool: Workers): void {
  if (Atomics.load(pool.control, CONTROL.failed) !== 0) {
    fail(pool, 'a kernel worker trapped while running its part');
    throw new Error('attnkit kernels: a worker trapped while running its part of a kernel call; the kernels run single-threaded from now on');
  }
}

/** Whether this thread may block in Atomics.wait (Node and workers: yes; a browser's main thread: no). */
function mainThreadCanWait(): boolean {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}

function spawn(threads: number): void {
  requested = threads;
  const loaded = loadModules();
  if (loaded === undefined || threads === 1) return;
  const list = [...loaded.values()];
  const outside = external;
  const control = new Int32Array(new SharedArrayBuffer(4 * CONTROL.size));
  const handles: Workers['handles'] = [];
  const pool: Workers = { control, handles, canWait: mainThreadCanWait(), state: 'starting' };
  Atomics.store(control, CONTROL.spin, threads <= logicalCores() ? KERNEL_SPIN_MICROSECONDS : 0); // more threads than cores: a waiting worker would hold a core another thread needs
  try {
    for (let index = 1; index < threads; index++) {
      const data: KernelWorkerData = {
        modules: [...list.map((m) => m.module), ...(outside === undefined ? [] : [outside.module])],
        memories: [...list.map((m) => m.instance.memory), ...(outside === undefined ? [] : [outside.memory])],
        stacks: [...list.map((m) => m.heapBase + index * STACK), ...(outside === undefined ? [] : [-1])], // the outside module uses no stack
        control: control.buffer as SharedArrayBuffer,
        index,
      };
      if (detectEnvironment() === 'node') {
        const { Worker: NodeWorker } = nodeBuiltin('node:worker_threads');
        const worker = new NodeWorker(KERNEL_WORKER_SOURCE, { eval: true, workerData: data });
        worker.unref(); // idle kernel workers never keep a process alive
        worker.on('error', () => fail(pool, 'a kernel worker exited with an error'));
        handles.push(worker);
      } else {
        const url = URL.createObjectURL(new Blob([KERNEL_WORKER_SOURCE], { type: 'text/javascript' }));
        const worker = new Worker(url, { name: `attnkit-kernels-${index}` });
        URL.revokeObjectURL(url);
        worker.onerror = () => fail(pool, 'a kernel worker failed (its script did not run)');
        worker.postMessage(data);
        handles.push(worker);
      }
    }
  } catch (cause) {
    handles.forEach((handle) => void handle.terminate());
    workers = { control, handles: [], canWait: false, state: 'failed', reason: `kernel workers could not be started: ${String(cause)}` };
    return;
  }
  workers = pool;
  if (pool.canWait) {
    // Node: the workers start on their own threads while this one blocks, so the first call is already parallel
    const deadline = performance.now() + START_TIMEOUT_MS;
    for (;;) {
      const ready = Atomics.load(control, CONTROL.ready);
      if (currentParts() > 1 || pool.state !== 'starting') break;
      const left = deadline - performance.now();
      if (left <= 0) {
        fail(pool, `kernel workers did not start within ${START_TIMEOUT_MS / 1000} s`);
        break;
      }
      Atomics.wait(control, CONTROL.ready, ready, left);
    }
  }
}

/** A module on a memory the kernels do not own, run on the kernel threads: see {@link threadsOnMemory}. */
export interface ExternalKernelThreads {
  /**
   * Runs `run_part(job, part, parts)` of the module for every part, claimed by whichever thread
   * comes first, the calling one included (as {@link SharedKernelInstance.run}); below
   * {@link SMALL_JOB_WORK} multiply-adds the job runs as one part on the calling thread. `units`:
   * the job's indivisible pieces (attention's (batch, head) pairs), when given the job is cut into
   * one chunk each (at most {@link MAX_KERNEL_CHUNKS}) instead of 4 per thread.
   */
  run(job: number, work: number, units?: number): void;
}

/**
 * The kernel threads for a module that lives on another shared memory (tfjs-wasm's threaded
 * build, where attnkit's fills run): `exports` is the calling thread's instance of `module` on
 * `memory`, which must export `run_part(job, part, parts)` and use no stack. The workers are
 * restarted once with the module added (in a browser they come up a turn later; calls run on the
 * calling thread meanwhile), and again only if another memory comes. Undefined where memory is not
 * shared or threading is unavailable.
 *
 * @example
 * threadsOnMemory(module, backend.wasm.wasmMemory, instance.exports)?.run(jobOffset, work);
 */
export function threadsOnMemory(module: WebAssembly.Module, memory: WebAssembly.Memory, exports: { run_part(job: number, part: number, parts: number): void }): ExternalKernelThreads | undefined {
  const loaded = loadModules();
  if (loaded === undefined || !(memory.buffer instanceof SharedArrayBuffer)) return undefined;
  if (external?.memory !== memory || external.module !== module) {
    external = { module, memory };
    if (workers !== undefined && workers.state !== 'failed' && requested !== undefined) { // running without it: restart with it
      const threads = requested;
      stopKernelThreads();
      spawn(threads);
    }
  }
  const index = loaded.size; // the last module of the workers' list
  return { run: (job, work, units) => runJob(index, exports as RunPartExports, job, work, units) };
}

/**
 * How the hand-written kernels (int8 and float32 products, fused attention) are threaded now. They split
 * each call over workers that share the kernels' WebAssembly memory: the output columns of a
 * product, the heads of an attention; and, where tfjs-wasm's memory is shared (its threaded build),
 * the (batch, head) pairs of the attention-rows kernels that run on it. Threads need `SharedArrayBuffer` (Node; in a browser,
 * a cross-origin-isolated page); without it every call runs on the calling thread.
 *
 * @example
 * kernelThreads(); // { threads: 2, requested: 2, state: 'ready' } on a 2-core machine in Node
 */
export function kernelThreads(): KernelThreadsReport {
  const loaded = loadModules();
  const wanted = requested ?? defaultThreads();
  if (loaded === undefined) return { threads: 1, requested: wanted, state: 'off', reason: unavailable as string };
  if (wanted === 1) return { threads: 1, requested: 1, state: 'off', reason: 'one thread was asked for' };
  if (workers === undefined) return { threads: 1, requested: wanted, state: 'off', reason: 'not started yet (the first kernel call or startKernelThreads starts them)' };
  const threads = currentParts();
  if (workers.state === 'failed') return { threads, requested: wanted, state: 'off', reason: workers.reason as string };
  return threads > 1 ? { threads, requested: wanted, state: 'ready' } : { threads, requested: wanted, state: 'starting', reason: 'the workers are starting' };
}

/**
 * Starts (or restarts with another count) the kernel workers and resolves once they wait for
 * work, with the report. Optional: the first kernel call starts the default count by itself (in
 * a browser those calls run single-threaded until the workers are up, which takes a turn of the
 * event loop: await this after loading a model to have the first forward threaded). Where
 * threads are unavailable it resolves with `threads: 1` and the reason; it never rejects for that.
 *
 * Shapes: none (a thread count). Throws `InvalidArgumentError` for a count that is not an integer
 * from 1 to 16.
 *
 * @example
 * await startKernelThreads();               // { threads: 4, requested: 4, state: 'ready' } on a 4+ core machine
 * await startKernelThreads({ threads: 1 }); // stop the workers: every call on the calling thread
 */
export async function startKernelThreads(options: StartKernelThreadsOptions = {}): Promise<KernelThreadsReport> {
  const caller = 'startKernelThreads';
  checkObject(options, { caller, argument: 'options', expected: 'an object with an optional threads count' });
  const { threads = defaultThreads() } = checkOptionKeys(options, ['threads'], caller);
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > MAX_KERNEL_THREADS) {
    throw new InvalidArgumentError({ caller, argument: 'threads', expected: `an integer from 1 to ${MAX_KERNEL_THREADS}`, received: describeValue(threads) });
  }
  if (workers !== undefined && workers.state !== 'failed' && requested === threads) return waitForWorkers();
  stopKernelThreads();
  spawn(threads);
  return waitForWorkers();
}

/**
 * Starts the default kernel workers unless a thread count was already chosen (or stopped), and
 * resolves once they wait for work: what model loaders await so that a browser's first forward is
 * threaded. Never rejects for missing threading (the report says why).
 *
 * @example
 * await kernelThreadsReady(); // { threads: 2, requested: 2, state: 'ready' } on a 2-core machine
 */
export async function kernelThreadsReady(): Promise<KernelThreadsReport> {
  if (loadModules() !== undefined && workers === undefined && requested === undefined) spawn(defaultThreads());
  return waitForWorkers();
}

async function waitForWorkers(): Promise<KernelThreadsReport> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (workers !== undefined && workers.state === 'starting' && currentParts() === 1) {
    if (performance.now() > deadline) {
      fail(workers, `kernel workers did not start within ${START_TIMEOUT_MS / 1000} s`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return kernelThreads();
}

/**
 * Stops the kernel workers: from now on every kernel call runs on the calling thread (results are
 * the same, bit for bit: threads only split the work). `startKernelThreads` starts them again.
 *
 * @example
 * stopKernelThreads();
 * kernelThreads().threads; // 1
 */
export function stopKernelThreads(): void {
  if (workers !== undefined && workers.state !== 'failed') stopWorkers(workers);
  workers = undefined;
  requested = 1;
}
