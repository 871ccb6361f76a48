import { tidy, type Tensor } from '@tensorflow/tfjs-core';

/** A backend the catalogue runs cases on (webgl and webgpu only in Chromium). */
export type CatalogueBackend = 'cpu' | 'wasm' | 'webgl' | 'webgpu';

/** One bad input of the reliability catalogue. */
export interface CatalogueCase {
  /** Which package or tool it exercises: `masks`, `scorers`, `attention`, `bert`, `loaders`, `tokenizer`, `cli`, `backends`. */
  readonly area: string;
  /** The bad input, in a few words. */
  readonly input: string;
  /** Runs it (under the backend the runner set: cpu, or each of `backends`). */
  readonly run: () => unknown;
  /** A typed error with this class name (`'AttnkitError'`: any of its subclasses) and message... */
  readonly error?: { readonly name: string; readonly message: string | RegExp };
  /**
   * ...or a documented safe result, checked by `check`. A returned NaN or ±Infinity anywhere in the
   * value is garbage unless `nonFinite` says non-finite values are part of the documented answer.
   */
  readonly safe?: { readonly result: string; readonly check: (value: unknown) => boolean | Promise<boolean>; readonly nonFinite?: boolean };
  /** Tensor-only cases: run once on each of these backends that the environment has. Absent: once, on cpu. */
  readonly backends?: readonly CatalogueBackend[];
  /** How docs/reliability.md labels the backend of a case that switches backends itself (`'cpu+wasm'`). */
  readonly shownAs?: string;
}

/** A case that must throw `name` with `message`. */
export function rejects(area: string, input: string, name: string, message: string | RegExp, run: () => unknown): CatalogueCase {
  return { area, input, run, error: { name, message } };
}

/** A case with a documented safe result (`{ nonFinite: true }`: NaN or ±Infinity in it is part of that result). */
export function safely(area: string, input: string, result: string, run: () => unknown, check: (value: unknown) => boolean | Promise<boolean>, options: { nonFinite?: boolean } = {}): CatalogueCase {
  return { area, input, run, safe: { result, check, ...options } };
}

/** Declares tensor-only cases: the runners run each once per backend of `backends` that they have. */
export function onEachBackend(backends: readonly CatalogueBackend[], cases: readonly CatalogueCase[]): CatalogueCase[] {
  return cases.map((c) => ({ ...c, backends }));
}

/** Declares cases that switch backends themselves: run once, shown in docs/reliability.md as `label`. */
export function shownAs(label: string, cases: readonly CatalogueCase[]): CatalogueCase[] {
  return cases.map((c) => ({ ...c, shownAs: label }));
}

/** Runs `fn` in a tf.tidy scope for its effect (usually: to throw), leaving no tensor behind. */
export function attempt(fn: () => unknown): void {
  tidy(() => {
    fn();
  });
}

/**
 * A tensor's values read asynchronously (`array()`), then the tensor disposed: the catalogue never reads
 * synchronously, since tfjs-webgpu's synchronous read goes through a canvas that SwiftShader returns as zeros
 * (and the device then fails the next buffer creations), which would be the harness's result, not attnkit's.
 */
export async function arrayOf(make: () => Tensor): Promise<unknown> {
  const made = tidy(make);
  try { return await made.array(); } finally { made.dispose(); }
}
