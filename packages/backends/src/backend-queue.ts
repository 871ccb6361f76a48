import { nodeBuiltin } from '@attnkit/errors';

/** An async context that follows awaits: Node's AsyncLocalStorage, or the TC39 AsyncContext where a browser has it. */
interface Context {
  get(): boolean;
  run<T>(fn: () => T): T;
}

function asyncContext(): Context | undefined {
  const tc39 = (globalThis as { AsyncContext?: { Variable: new () => { get(): unknown; run<T>(value: unknown, fn: () => T): T } } }).AsyncContext;
  if (tc39 !== undefined) {
    const variable = new tc39.Variable();
    return { get: () => variable.get() === true, run: (fn) => variable.run(true, fn) };
  }
  const load = (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule;
  if (typeof load !== 'function') return undefined;
  const { AsyncLocalStorage } = nodeBuiltin('node:async_hooks');
  const storage = new AsyncLocalStorage<boolean>();
  return { get: () => storage.getStore() === true, run: (fn) => storage.run(true, fn) };
}

const context = asyncContext();
let tail: Promise<void> = Promise.resolve();
let syncHolder = false; // a holder's fn is on the stack (its synchronous start)

/**
 * Runs `fn` alone: calls that change the tfjs global backend across awaits (`useBackend`,
 * `withBackend`) queue here and run one after another, in call order. A call made from inside
 * a running one (a `withBackend` in another's `fn`) runs at once instead of waiting for itself:
 * Node and runtimes with `AsyncContext` see that across awaits; elsewhere only before `fn`'s first
 * await.
 *
 * @example
 * await exclusively(async () => { await setBackend('wasm'); ...; await setBackend(previous); });
 */
export async function exclusively<T>(fn: () => T | Promise<T>): Promise<T> {
  if (syncHolder || context?.get() === true) return fn();
  const before = tail;
  let release!: () => void;
  tail = new Promise((resolve) => (release = resolve));
  await before;
  try {
    const start = () => {
      syncHolder = true;
      try {
        return fn();
      } finally {
        syncHolder = false;
      }
    };
    return await (context === undefined ? start() : context.run(start));
  } finally {
    release();
  }
}
