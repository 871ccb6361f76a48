import { describeValue } from '@attnkit/errors';
import { ModelLoadError } from './model-load-error.js';

/**
 * Where a model folder comes from: a local folder (Node), a URL, or its files (`{ files }`: name →
 * contents, as a browser upload gives them). Every loader takes one, or a {@link ModelFiles} reader
 * already opened on one.
 */
export type ModelSource = string | URL | { readonly files: Readonly<Record<string, ArrayBuffer | Uint8Array | string | Blob>> };

/** A URL source (`http(s):`, `blob:`, `data:`, a `URL`), or in a browser any path that is not a Windows drive path. */
export function isUrlSource(source: string | URL): boolean {
  return source instanceof URL || /^(https?:|blob:|data:)/.test(source) || (typeof document !== 'undefined' && !/^[A-Za-z]:[\\/]/.test(source));
}

/** `source` is `{ files }` (an object of file name → contents). */
export function isFileSet(source: ModelSource): source is Exclude<ModelSource, string | URL> {
  return typeof source === 'object' && !(source instanceof URL);
}

/**
 * Throws a `ModelLoadError` unless `source` is a model source: a non-empty path or URL string, a
 * `URL`, or `{ files }` (an object of file name → contents).
 *
 * @example
 * checkModelSource(undefined, 'loadEncoder'); // ModelLoadError: loadEncoder: the model source must be ...
 */
export function checkModelSource(source: unknown, caller: string): asserts source is ModelSource {
  const files = (source as { files?: unknown } | null)?.files;
  const ok = (typeof source === 'string' && source !== '') || source instanceof URL || (typeof source === 'object' && source !== null && typeof files === 'object' && files !== null && !Array.isArray(files));
  if (!ok) throw new ModelLoadError('', `the model source must be a folder path or URL (a non-empty string), a URL object, or { files: { 'config.json': ..., ... } }; received ${describeValue(source)}.`, undefined, caller);
}

/**
 * Where a source is, for messages: its path or URL, or "the given files".
 *
 * @example
 * describeSource({ files: {} }); // 'the given files'
 */
export function describeSource(source: ModelSource): string {
  return isFileSet(source) ? 'the given files' : String(source);
}
