/**
 * An options object with its `null` values left out, so that each reads as absent (its default),
 * as `None` does in sentence-transformers (`normalize_embeddings=None`, `top_k=None`, ...). The
 * caller has checked that `options` is an object.
 *
 * @example
 * withoutNullOptions({ normalize: null, batchSize: 8 }); // { batchSize: 8 }
 */
export function withoutNullOptions<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== null)) as T;
}
