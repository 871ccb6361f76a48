// The memory bandwidth the generation bench divides weight bytes by: a streaming read of a buffer far bigger
// than the last-level cache, in wasm SIMD (stream-sum.wat), on 1 and on `threads` threads (workers sharing one
// wasm memory, each summing its own slice), in the environment the engines run in (Node or Chromium).

/** stream-sum.wat assembled (`wat2wasm --enable-threads stream-sum.wat`), base64. */
const STREAM_SUM = 'AGFzbQEAAAABBwFgAn9/AX0CEgEDZW52Bm1lbW9yeQIDAYCABAMCAQAHBwEDc3VtAAAKgAEBfgEEewJAIAAgAU8NAANAIAIgAP0ABAD95AEhAiADIAD9AAQQ/eQBIQMgBCAA/QAEIP3kASEEIAUgAP0ABDD95AEhBSAAQcAAaiEAIAAgAUkNAAsLIAIgA/3kASAEIAX95AH95AEhAiAC/R8AIAL9HwGSIAL9HwIgAv0fA5KSCw==';

/** 512 MiB: 16 × this machine's 32 MiB L3 (the report states the L3 it ran on). */
export const BANDWIDTH_BYTES = 512 * 1024 * 1024;
const PASSES = 5;

/** One measurement: bytes read per second, in GB/s (10⁹ bytes), median of the passes, with every pass. */
export interface BandwidthResult {
  readonly threads: number;
  readonly gbPerSecond: number;
  readonly passes: number[];
  readonly bytes: number;
  readonly method: string;
}

/**
 * The worker's source, for Node's worker_threads (`eval: true`, CommonJS) and for a browser Worker (a Blob URL):
 * it instantiates stream-sum on the shared memory it is sent, then answers each `[start, end]` with its
 * `performance.timeOrigin + now()` before and after the sum (clocks comparable across workers).
 */
export const WORKER_SOURCE = `
const isNode = typeof self === 'undefined';
const port = isNode ? require('node:worker_threads').parentPort : self;
const listen = (f) => isNode ? port.on('message', f) : (self.onmessage = (e) => f(e.data));
let sum;
listen(async (message) => {
  if (message.memory) {
    const bytes = Uint8Array.from(atob(message.wasm), (c) => c.charCodeAt(0));
    const { instance } = await WebAssembly.instantiate(bytes, { env: { memory: message.memory } });
    sum = instance.exports.sum;
    port.postMessage({ ready: true });
    return;
  }
  const t0 = performance.timeOrigin + performance.now();
  const value = sum(message.start, message.end);
  const t1 = performance.timeOrigin + performance.now();
  port.postMessage({ t0, t1, value });
});
`;

/** A started worker as bandwidth.ts talks to it (Node's worker_threads or a browser Worker, wrapped). */
export interface ProbeWorker {
  send(message: unknown): void;
  next(): Promise<{ ready?: boolean; t0?: number; t1?: number; value?: number }>;
  terminate(): void;
}

/** Streams the 512 MiB buffer `PASSES` times on `threads` workers; GB/s = bytes / (last end − first start). */
export async function measureBandwidth(threads: number, start: () => ProbeWorker, environment: string): Promise<BandwidthResult> {
  const pages = BANDWIDTH_BYTES / 65536;
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  new Float32Array(memory.buffer).fill(1); // touch every page: the reads hit memory, not the zero page
  const workers = Array.from({ length: threads }, start);
  try {
    for (const w of workers) w.send({ memory, wasm: STREAM_SUM });
    await Promise.all(workers.map((w) => w.next()));
    const slice = BANDWIDTH_BYTES / threads;
    const passes: number[] = [];
    for (let pass = -1; pass < PASSES; pass++) { // pass -1: a warm-up, not counted
      workers.forEach((w, i) => w.send({ start: i * slice, end: (i + 1) * slice }));
      const answers = await Promise.all(workers.map((w) => w.next()));
      const total = answers.reduce((s, a) => s + (a.value ?? 0), 0);
      if (total !== BANDWIDTH_BYTES / 4) throw new Error(`bandwidth probe: sum ${total}, expected ${BANDWIDTH_BYTES / 4}`);
      const seconds = (Math.max(...answers.map((a) => a.t1!)) - Math.min(...answers.map((a) => a.t0!))) / 1000;
      if (pass >= 0) passes.push(BANDWIDTH_BYTES / seconds / 1e9);
    }
    const sorted = [...passes].sort((a, b) => a - b);
    return { threads, gbPerSecond: sorted[Math.floor(sorted.length / 2)]!, passes, bytes: BANDWIDTH_BYTES, method: `${environment}: wasm SIMD sum (4 × f32x4 accumulators) over a 512 MiB shared buffer, ${threads} worker${threads > 1 ? 's' : ''} each a slice, median of ${PASSES} passes after a warm-up pass` };
  } finally {
    for (const w of workers) w.terminate();
  }
}
