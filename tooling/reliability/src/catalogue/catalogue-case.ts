import { tidy } from '@tensorflow/tfjs-core';

/** One bad input of the reliability catalogue. */
export interface CatalogueCase {
  /** Which package or tool it exercises: `masks`, `scorers`, `attention`, `bert`, `loaders`, `tokenizer`, `cli`, `backends`. */
  readonly area: string;
  /** The bad input, in a few words. */
  readonly input: string;
  /** Runs it (under the cpu backend). */
  readonly run: () => unknown;
  /** A typed error with this class name (`'AttnkitError'`: any of its subclasses) and message... */
  readonly error?: { readonly name: string; readonly message: string | RegExp };
  /** ...or a documented safe result, checked by `check`. */
  readonly safe?: { readonly result: string; readonly check: (value: unknown) => boolean | Promise<boolean> };
}

/** A case that must throw `name` with `message`. */
export function rejects(area: string, input: string, name: string, message: string | RegExp, run: () => unknown): CatalogueCase {
  return { area, input, run, error: { name, message } };
}

/** A case with a documented safe result. */
export function safely(area: string, input: string, result: string, run: () => unknown, check: (value: unknown) => boolean | Promise<boolean>): CatalogueCase {
  return { area, input, run, safe: { result, check } };
}

/** Runs `fn` in a tf.tidy scope for its effect (usually: to throw), leaving no tensor behind. */
export function attempt(fn: () => unknown): void {
  tidy(() => {
    fn();
  });
}
