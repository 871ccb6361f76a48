import { add, engine, getBackend, memory, scalar } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { callBackend } from './call-backend.js';
import { BackendNotReadyError } from './errors/backend-not-ready-error.js';
import { UnknownBackendError } from './errors/unknown-backend-error.js';
import { useBackend } from './use-backend.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('callBackend', () => {
  it('keeps the backend a call started on after the global changed, and restores the global', async () => {
    await useBackend('wasm');
    await useBackend('cpu');
    const pinned = callBackend('test');
    await useBackend('wasm');
    const seen = pinned.run(() => getBackend());
    expect(seen).toBe('cpu');
    expect(engine().backendName).toBe('wasm');
    const sum = pinned.run(() => add(scalar(1), scalar(2)));
    expect(engine().state.tensorInfo.get(sum.dataId)?.backend).toBe(engine().findBackend('cpu'));
    sum.dispose();
    await useBackend('cpu');
  });

  it('two interleaved calls on cpu and wasm each run every step on their own backend', async () => {
    await useBackend('wasm');
    await useBackend('cpu');
    const before = memory().numTensors;
    const run = async (name: 'cpu' | 'wasm') => {
      await useBackend(name);
      const pinned = callBackend('test');
      const seen: string[] = [];
      for (let i = 0; i < 20; i++) {
        await tick();
        seen.push(pinned.run(() => getBackend()));
      }
      return seen;
    };
    const [a, b] = await Promise.all([run('cpu'), run('wasm')]);
    expect(new Set(a)).toEqual(new Set(['cpu']));
    expect(new Set(b)).toEqual(new Set(['wasm']));
    expect(memory().numTensors).toBe(before);
    await useBackend('cpu');
  });

  it('takes a named backend, and refuses one that is not initialised', async () => {
    await useBackend('cpu');
    expect(callBackend('test', 'wasm').run(() => getBackend())).toBe('wasm');
    expect(getBackend()).toBe('cpu');
    expect(() => callBackend('test', 'webgl')).toThrow(BackendNotReadyError);
    expect(() => callBackend('test', 'webgl')).toThrow("test: backend 'webgl' is not initialised. Call `await useBackend('webgl')` (or withBackend) from @attnkit/backends once first.");
    expect(() => callBackend('test', 'tpu')).toThrow(UnknownBackendError);
  });

  it('refuses a function that returns a promise, and still restores the global', async () => {
    await useBackend('cpu');
    const pinned = callBackend('test', 'wasm');
    expect(() => pinned.run(async () => 1)).toThrow(InvalidArgumentError);
    expect(() => pinned.run(async () => 1)).toThrow("test (callBackend.run): 'fn' must be a synchronous function (await outside run); received a function that returned a promise.");
    expect(getBackend()).toBe('cpu');
  });

  it('restores the global when fn throws', async () => {
    await useBackend('cpu');
    expect(() => callBackend('test', 'wasm').run(() => { throw new Error('boom'); })).toThrow('boom');
    expect(getBackend()).toBe('cpu');
  });
});

describe('callBackend arguments', () => {
  it('refuses a backend that is not a name (a disposed tensor, a number) with a typed error', () => {
    expect(() => callBackend('load', 7 as never)).toThrow(InvalidArgumentError);
    expect(() => callBackend('load', { dataId: {}, shape: [1], dtype: 'float32', isDisposed: true } as never)).toThrow(/^load: 'backend' must be the name of an initialised backend/);
  });

  it('run refuses a function that is no function, naming the caller', async () => {
    await useBackend('cpu');
    for (const fn of [undefined, null, 'x', {}]) {
      expect(() => callBackend('f', 'cpu').run(fn as never)).toThrow(InvalidArgumentError);
      expect(() => callBackend('f', 'cpu').run(fn as never)).toThrow(/^f \(callBackend\.run\): 'fn' must be a synchronous function to run on the backend/);
    }
  });
});
