/**
 * Resolves on a later turn of the event loop (not a microtask), so that what waits there runs
 * between training steps: an AbortSignal from a Ctrl-C handler, a page repaint, a progress bar.
 * A step's `await tensor.data()` can settle without ever leaving the microtask queue (cpu, wasm),
 * which would keep them all waiting until the run ends.
 *
 * @example
 * for (...) { step(); await yieldToEventLoop(); }
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(undefined);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
