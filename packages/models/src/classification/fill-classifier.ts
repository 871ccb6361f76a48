import type { Module, StateDictSource } from '@attnkit/nn';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';

/** How {@link fillClassifier} fills a classifier. */
export interface FillClassifierOptions {
  /** Std of the normal initialisation (`initializer_range`). */
  readonly initializerRange: number;
  /** Makes the initialisation reproducible (parameter `i` draws with `seed + i`). */
  readonly seed?: number | undefined;
  /**
   * Groups of keys initialised, as a new head, when the checkpoint has none of a group's keys
   * (`[['classifier.weight', 'classifier.bias']]`); a group the checkpoint has part of stays
   * strict, so its missing keys are an error. Empty: the whole checkpoint is strict.
   */
  readonly newKeys?: readonly (readonly string[])[];
}

/**
 * Fills a classifier built under `skipInitialization` (every parameter at zero): without a
 * checkpoint, every parameter initialised as transformers does; with one (values by the model's
 * keys, `bert.embeddings.word_embeddings.weight`, `classifier.weight`, ...), loaded strictly — but
 * for each group of `newKeys` the checkpoint has none of, which is initialised instead. Returns the
 * keys initialised (empty when the checkpoint held everything).
 *
 * @example
 * const initialised = fillClassifier(this, checkpoint, { initializerRange: 0.02, newKeys: [['classifier.weight', 'classifier.bias']] });
 */
export function fillClassifier(model: Module, checkpoint: StateDictSource | undefined, options: FillClassifierOptions): string[] {
  const { initializerRange, seed, newKeys = [] } = options;
  const initialise = (keys?: readonly string[]) => initialiseLikeHuggingFace(model, initializerRange, seed, keys === undefined ? undefined : (name) => keys.includes(name));
  if (checkpoint === undefined) {
    initialise();
    return model.namedParameters().map(([name]) => name);
  }
  const has = (key: string) => (checkpoint instanceof Map ? checkpoint.has(key) : Object.hasOwn(checkpoint, key));
  const fresh = newKeys.filter((group) => !group.some(has)).flat();
  if (fresh.length === 0) {
    model.loadStateDict(checkpoint);
    return [];
  }
  initialise(fresh);
  const own = new Map(model.namedParameters());
  const entries = checkpoint instanceof Map ? [...checkpoint] : Object.entries(checkpoint);
  model.loadStateDict(new Map([...entries, ...fresh.map((key) => [key, own.get(key)!] as const)])); // strict for everything else
  return fresh;
}
