/** Where the code runs: Node.js, a browser page, or a browser (web) worker. */
export type RuntimeEnvironment = 'node' | 'browser' | 'worker';

/**
 * Detects the runtime without touching any backend.
 *
 * @example
 * if (detectEnvironment() === 'node') console.log('webgl is not available here');
 */
export function detectEnvironment(): RuntimeEnvironment {
  const g = globalThis as { process?: { versions?: { node?: string } }; document?: unknown };
  if (typeof g.document === 'object' && g.document !== null) return 'browser';
  if (typeof g.process?.versions?.node === 'string') return 'node';
  return 'worker';
}
