import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { engine, findBackend, getBackend, memory, mul, scalar, type Tensor } from '@tensorflow/tfjs-core';
import { callBackend, compareBackends, useBackend, withBackend } from '@attnkit/backends';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const C = 'concurrency';
const folder = (name: string) => repoPath(`tooling/reference/fixtures/sentence/${name}/`);
const texts = ['the first text', 'a second, somewhat longer text to embed', 'three', 'and a fourth one here', 'five', 'six is the last'];
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const backendOf = (t: Tensor) => engine().state.tensorInfo.get(t.dataId)?.backend;
const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => Object.is(v, b[i]));

/** Runs `fn` with `backend` as the caller's backend, and says whether the caller's backend was left as it was. */
async function fromBackend<T>(backend: 'cpu' | 'wasm', fn: () => Promise<T>): Promise<{ value: T; restored: boolean }> {
  await useBackend(backend);
  const value = await fn();
  const restored = getBackend() === backend;
  await useBackend('cpu');
  return { value, restored };
}

/** Backend switches every tick for a while: the "other async work" that interleaves. */
async function noise(ticks = 12): Promise<void> {
  for (let i = 0; i < ticks; i++) {
    await useBackend(i % 2 === 0 ? 'wasm' : 'cpu');
    await tick();
  }
}

async function encodeAlone(model: SentenceEncoder, backend: 'cpu' | 'wasm', options: { batchSize: number; normalize?: boolean }): Promise<Float32Array> {
  const out = await withBackend(backend, () => model.encode(texts, options));
  const values = (await out.data()) as Float32Array;
  out.dispose();
  return values;
}

/** Encodes on `backends` at once, each from its own model, with backend switches in between; each result must equal its lone run. */
async function overlappingEncodes(backends: ReadonlyArray<'cpu' | 'wasm'>, oneModel: boolean): Promise<boolean> {
  const models: SentenceEncoder[] = [];
  for (const b of backends) {
    if (oneModel && models.length > 0) break;
    await useBackend(b);
    models.push(await loadSentenceEncoder(folder('bert-mean-normalize')));
  }
  try {
    const options = backends.map((_, i) => ({ batchSize: 1 + (i % 3), normalize: i % 2 === 0 }));
    const expected: Float32Array[] = [];
    for (const [i, b] of backends.entries()) expected.push(await encodeAlone(models[oneModel ? 0 : i]!, b, options[i]!));
    const calls: Array<Promise<Tensor>> = [];
    for (const [i, b] of backends.entries()) {
      await useBackend(b);
      calls.push(models[oneModel ? 0 : i]!.encode(texts, options[i]!));
    }
    const [outs] = await Promise.all([Promise.all(calls), noise()]);
    const ok = outs.every((out, i) => backendOf(out) === findBackend(backends[i]!));
    const values = await Promise.all(outs.map((o) => o.data()));
    outs.forEach((o) => o.dispose());
    return ok && values.every((v, i) => same(v, expected[i]!));
  } finally {
    models.forEach((m) => m.dispose());
    await useBackend('cpu');
  }
}

async function disposeWhilePending(backend: 'cpu' | 'wasm', precision: 'float32' | 'int8'): Promise<unknown> {
  await useBackend(backend);
  try {
    const model = await loadSentenceEncoder(folder('bert-dense'));
    return await model.encode(texts, { batchSize: 1, precision: precision as 'int8', onProgress: (done) => { if (done === 2) model.dispose(); } });
  } finally {
    await useBackend('cpu');
  }
}

/** `cycles` load → encode → dispose on `backend`: tensors, tensor bytes and (wasm) the wasm heap must end where they began; JS heap growth reported. */
async function soak(backend: 'cpu' | 'wasm', cycles: number): Promise<{ tensors: number; bytes: number; wasmHeap: number; heapMB: number }> {
  await useBackend(backend);
  const heap = () => (findBackend('wasm') as unknown as { wasm?: { HEAPU8: Uint8Array } } | null)?.wasm?.HEAPU8.length ?? 0;
  const cycle = async () => {
    const model = await loadSentenceEncoder(folder('bert-dense'));
    (await model.encode(texts)).dispose();
    model.dispose();
  };
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void; // a full collection, so that the JS heap figure is what is still referenced
  await cycle(); // warm-up: kernels, caches and the wasm heap's first growth
  gc();
  const before = { ...memory(), wasmHeap: heap(), js: process.memoryUsage().heapUsed };
  for (let i = 0; i < cycles; i++) await cycle();
  gc();
  const after = { ...memory(), wasmHeap: heap(), js: process.memoryUsage().heapUsed };
  await useBackend('cpu');
  return { tensors: after.numTensors - before.numTensors, bytes: after.numBytes - before.numBytes, wasmHeap: after.wasmHeap - before.wasmHeap, heapMB: (after.js - before.js) / 2 ** 20 };
}

/** Overlapping calls, dispose while pending, aborts, and load/dispose soaks, on cpu and wasm in Node. */
export const concurrencyCases: CatalogueCase[] = [
  ...(['cpu', 'wasm'] as const).flatMap((first) => {
    const second = first === 'cpu' ? 'wasm' : 'cpu';
    return [
      safely(C, `two overlapping withBackend calls (${first} and ${second}) with awaits inside`, "each fn sees its own backend at every step; the caller's backend is restored", () => fromBackend(first, async () => {
        const steps = (name: string) => withBackend(name, async () => {
          const seen = new Set<string>();
          for (let i = 0; i < 8; i++) (await tick(), seen.add(getBackend()));
          return [...seen];
        });
        return Promise.all([steps(first), steps(second), steps(first)]);
      }), (v) => {
        const { value, restored } = v as { value: string[][]; restored: boolean };
        return restored && JSON.stringify(value) === JSON.stringify([[first], [second], [first]]);
      }),
      safely(C, `withBackend(${second}) nested in withBackend(${first}) after an await`, 'the inner call runs at once on its backend; the outer backend comes back after it', () => fromBackend('cpu', () => withBackend(first, async () => {
        await tick();
        const inner = await withBackend(second, async () => (await tick(), getBackend()));
        return [inner, getBackend()];
      })), (v) => (v as { value: string[]; restored: boolean }).restored && JSON.stringify((v as { value: string[] }).value) === JSON.stringify([second, first])),
      safely(C, `three compareBackends at once while withBackend(${second}) switches the global`, 'each side is computed on the backend it names; the active backend is unchanged', () => fromBackend(first, async () => {
        const seen: string[][] = [[], [], []];
        const traced = (i: number) => () => (seen[i]!.push(getBackend()), mul(scalar(i + 1), scalar(3)));
        const busy = withBackend(second, async () => { for (let i = 0; i < 6; i++) await tick(); });
        const reports = await Promise.all([
          compareBackends(traced(0), { backends: ['wasm'], baseline: 'cpu' }),
          compareBackends(traced(1), { backends: ['cpu', 'wasm'], baseline: 'wasm' }),
          compareBackends(traced(2), { backends: ['wasm', 'cpu'], baseline: 'cpu' }),
        ]);
        await busy;
        return { seen, ok: reports.every((r) => r.ok) };
      }), (v) => {
        const { value, restored } = v as { value: { seen: string[][]; ok: boolean }; restored: boolean };
        return restored && value.ok && JSON.stringify(value.seen) === JSON.stringify([['cpu', 'wasm'], ['wasm', 'cpu', 'wasm'], ['cpu', 'wasm', 'cpu']]);
      }),
      safely(C, `encode on ${first} and on ${second} (two models) at once, with useBackend switching every tick`, 'each result is bit-identical to the same call alone, on its own backend', () => overlappingEncodes([first, second, first], false), (v) => v === true),
      safely(C, `three encodes at once on one model, the first called on ${first}`, 'each result is bit-identical to the same call alone', () => overlappingEncodes([first, second, second], true), (v) => v === true),
      safely(C, `loadSentenceEncoder called on ${first} while useBackend(${second}) runs`, 'every weight is made on the backend the load started on', async () => {
        await useBackend(first);
        const loading = loadSentenceEncoder(folder('bert-dense'));
        await useBackend(second);
        const model = await loading;
        const where = new Set([...model.encoder.parameters(), ...model.dense.flatMap((d) => d.parameters())].map(backendOf));
        model.dispose();
        await useBackend('cpu');
        return where.size === 1 && where.has(findBackend(first)!);
      }, (v) => v === true),
      rejects(C, `dispose() while an encode is pending (${first})`, 'UseAfterDisposeError', 'SentenceEncoder.encode: called after dispose() freed its weights. Create a new instance instead.', () => disposeWhilePending(first, 'float32')),
      rejects(C, `dispose() while a quantized encode is pending (${first})`, 'UseAfterDisposeError', 'SentenceEncoder.encode: called after dispose() freed its weights. Create a new instance instead.', () => disposeWhilePending(first, 'int8')),
      safely(C, `AbortSignal fired between encode batches (${first})`, "rejects with the signal's AbortError, leaving no tensor behind", async () => {
        await useBackend(first);
        const model = await loadSentenceEncoder(folder('bert-mean-normalize'));
        const controller = new AbortController();
        try {
          await model.encode(texts, { batchSize: 1, signal: controller.signal, onProgress: (done) => { if (done === 2) controller.abort(); } });
          return 'resolved';
        } catch (error) {
          return (error as Error).name;
        } finally {
          model.dispose();
          await useBackend('cpu');
        }
      }, (v) => v === 'AbortError'),
      safely(C, `AbortSignal fired while loadSentenceEncoder reads (${first})`, "rejects with the signal's AbortError, leaving no tensor behind", async () => {
        await useBackend(first);
        const controller = new AbortController();
        const loading = loadSentenceEncoder(folder('bert-dense'), { signal: controller.signal, onProgress: (p) => { if (p.file === 'model.safetensors') controller.abort(); } });
        try {
          (await loading).dispose();
          return 'resolved';
        } catch (error) {
          return (error as Error).name;
        } finally {
          await useBackend('cpu');
        }
      }, (v) => v === 'AbortError'),
      safely(C, `30 load → encode → dispose cycles (${first})`, 'tensors, tensor bytes and the wasm heap end where they began; JS heap (after a full collection) grows by less than 2 MB', () => soak(first, 30), (v) => {
        const r = v as { tensors: number; bytes: number; wasmHeap: number; heapMB: number };
        console.log(`soak ${first}: tensors ${r.tensors}, bytes ${r.bytes}, wasm heap ${r.wasmHeap}, JS heap ${r.heapMB.toFixed(1)} MB`);
        return r.tensors === 0 && r.bytes === 0 && r.wasmHeap === 0 && r.heapMB < 2;
      }),
    ];
  }),
  rejects(C, 'callBackend(...).run with an async function', 'InvalidArgumentError', "catalogue (callBackend.run): 'fn' must be a synchronous function (await outside run); received a function that returned a promise.", () => callBackend('catalogue').run(async () => 1)),
  rejects(C, 'callBackend on a backend never initialised', 'BackendNotReadyError', "catalogue: backend 'webgl' is not initialised. Call `await useBackend('webgl')` (or withBackend) from @attnkit/backends once first.", () => callBackend('catalogue', 'webgl')),
  safely(C, 'withBackend on an unavailable backend while other calls queue', 'that call rejects with BackendUnavailableError; the queued calls still run and the caller\'s backend is restored', () => fromBackend('cpu', async () => {
    const results = await Promise.allSettled([withBackend('wasm', async () => (await tick(), getBackend())), withBackend('webgl', () => 'never'), withBackend('wasm', () => { throw new Error('boom'); }), withBackend('wasm', () => getBackend())]);
    return results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).name));
  }), (v) => (v as { restored: boolean }).restored && JSON.stringify((v as { value: string[] }).value) === JSON.stringify(['wasm', 'BackendUnavailableError', 'Error', 'wasm'])),
];
