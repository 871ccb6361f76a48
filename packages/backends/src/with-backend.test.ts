import { engine } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { useBackend } from './use-backend.js';
import { withBackend } from './with-backend.js';

describe('withBackend', () => {
  it('runs fn on the named backend and restores the previous one, also when fn throws', async () => {
    await useBackend('cpu');
    expect(await withBackend('wasm', () => engine().backendName)).toBe('wasm');
    expect(engine().backendName).toBe('cpu');
    await expect(withBackend('wasm', () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(engine().backendName).toBe('cpu');
  });
  it('leaves the active backend alone when the requested one is unavailable', async () => {
    await useBackend('cpu');
    await expect(withBackend('webgl', () => 1)).rejects.toThrow("backend 'webgl' is not available in node");
    expect(engine().backendName).toBe('cpu');
  });
});

describe('withBackend under overlap', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  it('overlapping calls on cpu and wasm each see their own backend at every step and restore the caller\'s', async () => {
    await useBackend('wasm');
    await useBackend('cpu');
    const steps = (name: string) => withBackend(name, async () => {
      const seen: string[] = [];
      for (let i = 0; i < 10; i++) {
        await tick();
        seen.push(engine().backendName);
      }
      return seen;
    });
    const [a, b, c] = await Promise.all([steps('wasm'), steps('cpu'), steps('wasm')]);
    expect([new Set(a), new Set(b), new Set(c)]).toEqual([new Set(['wasm']), new Set(['cpu']), new Set(['wasm'])]);
    expect(engine().backendName).toBe('cpu');
  });

  it('a withBackend nested in another runs at once and restores the outer backend', async () => {
    await useBackend('cpu');
    const seen = await withBackend('wasm', async () => {
      await tick();
      const inner = await withBackend('cpu', async () => { await tick(); return engine().backendName; });
      return [inner, engine().backendName];
    });
    expect(seen).toEqual(['cpu', 'wasm']);
    expect(engine().backendName).toBe('cpu');
  });

  it('a useBackend made while a withBackend runs takes effect after it', async () => {
    await useBackend('cpu');
    const inside = withBackend('wasm', async () => { await tick(); await tick(); return engine().backendName; });
    const switched = useBackend('wasm');
    expect(await inside).toBe('wasm');
    await switched;
    expect(engine().backendName).toBe('wasm');
    await useBackend('cpu');
  });
});

describe('withBackend arguments', () => {
  it('refuses a fn that is not a function and a null options object with typed errors, switching nothing', async () => {
    await useBackend('cpu');
    const error = await withBackend('wasm', 5 as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe("withBackend: 'fn' must be a function to run on the backend; received number 5.");
    await expect(withBackend('wasm', () => 1, null as never)).rejects.toThrow("withBackend: 'options' must be an options object { wasmPaths?, numThreads? }; received null.");
    expect(engine().backendName).toBe('cpu');
  });
});
