import { memory } from '@tensorflow/tfjs-core';

/**
 * Runs one fuzz case and fails it if it leaves tensors behind (the case disposes what it makes and
 * what it gets back). Returns what `body` returns.
 *
 * @example
 * fc.property(spec, (s) => withoutLeak(() => { const t = makeTensor(s); ...; t.dispose(); return true; }));
 */
export function withoutLeak<T>(body: () => T): T {
  const before = memory().numTensors;
  const result = body();
  const leaked = memory().numTensors - before;
  if (leaked !== 0) throw new Error(`${leaked} tensor(s) left behind`);
  return result;
}
