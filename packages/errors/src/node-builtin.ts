import { InvalidArgumentError } from './invalid-argument-error.js';
import { describeValue } from './validate/index.js';
/** The Node built-in modules {@link nodeBuiltin} loads, by id. */
export type BuiltIns = {
  'node:fs': typeof import('node:fs');
  'node:fs/promises': typeof import('node:fs/promises');
  'node:module': typeof import('node:module');
  'node:os': typeof import('node:os');
  'node:path': typeof import('node:path');
  'node:url': typeof import('node:url');
  'node:buffer': typeof import('node:buffer');
  'node:worker_threads': typeof import('node:worker_threads');
  'node:async_hooks': typeof import('node:async_hooks');
};

/**
 * A Node built-in module, loaded with `process.getBuiltinModule` (Node ≥ 20.16) rather than an
 * import statement, so browser bundles never see Node imports in attnkit's Node-only code paths.
 *
 * @example
 * const { existsSync } = nodeBuiltin('node:fs');
 */
export function nodeBuiltin<ID extends keyof BuiltIns>(id: ID): BuiltIns[ID] {
  const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (load === undefined) throw new Error(`attnkit: ${id} is only available in Node.js ≥ 20.16 (this code path is Node-only)`);
  if (typeof id !== 'string') throw new InvalidArgumentError({ caller: 'nodeBuiltin', argument: 'id', expected: 'a Node built-in module id such as "node:fs"', received: describeValue(id) });
  const loaded = load(id);
  if (loaded === undefined) throw new InvalidArgumentError({ caller: 'nodeBuiltin', argument: 'id', expected: 'a Node built-in module id such as "node:fs"', received: describeValue(id) });
  return loaded as BuiltIns[ID];
}
