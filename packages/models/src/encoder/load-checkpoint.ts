import type { Module, StateDictSource } from '@attnkit/nn';

/**
 * Loads `checkpoint` into `module` strictly, except the `optional` keys when the checkpoint has
 * none of them (a pooler saved without one, as Hugging Face's `add_pooling_layer=False`): those
 * keep the values `initialise` gives them. Returns the keys initialised (empty when all loaded).
 */
export function loadCheckpoint(module: Module, checkpoint: StateDictSource, optional: readonly string[], initialise: (keys: readonly string[]) => void): string[] {
  const has = (key: string) => (checkpoint instanceof Map ? checkpoint.has(key) : Object.hasOwn(checkpoint, key));
  if (optional.length === 0 || optional.some(has)) {
    module.loadStateDict(checkpoint);
    return [];
  }
  initialise(optional);
  const own = new Map(module.namedParameters());
  const entries = checkpoint instanceof Map ? [...checkpoint] : Object.entries(checkpoint);
  module.loadStateDict(new Map([...entries, ...optional.map((key) => [key, own.get(key)!] as const)])); // strict for everything else
  return [...optional];
}
