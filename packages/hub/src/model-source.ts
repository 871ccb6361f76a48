import { describeValue } from '@attnkit/errors';
import { checkHubSource, describeHubSource, isHubSource, parseHubId, type HubSource } from './hub/hub-id.js';
import { ModelLoadError } from './model-load-error.js';

/**
 * Where a model folder comes from: a local folder (Node), a URL, its files (`{ files }`: name →
 * contents, as a browser upload gives them), or a model on the Hugging Face Hub — `'org/name'`,
 * `'org/name@revision'` or `{ id, revision?, subfolder? }` — read through the cache Python uses
 * (Node) or from the Hub's resolve URLs (browser). Every loader takes one, or a `ModelFiles`
 * reader already opened on one.
 */
export type ModelSource = string | URL | { readonly files: Readonly<Record<string, ArrayBuffer | Uint8Array | string | Blob>> } | HubSource;

/** A URL source (`http(s):`, `blob:`, `data:`, a `URL`), or in a browser any path that is not a Windows drive path. */
export function isUrlSource(source: string | URL): boolean {
  return source instanceof URL || /^(https?:|blob:|data:)/.test(source) || (typeof document !== 'undefined' && !/^[A-Za-z]:[\\/]/.test(source));
}

/** `source` is `{ files }` (an object of file name → contents). */
export function isFileSet(source: ModelSource): source is { readonly files: Readonly<Record<string, ArrayBuffer | Uint8Array | string | Blob>> } {
  return typeof source === 'object' && !(source instanceof URL) && !isHubSource(source);
}

/** True in Node when `path` is a folder on disk (a local folder wins over a Hub id of the same spelling, as in transformers). */
function localFolderExists(path: string): boolean {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (getBuiltin === undefined || typeof document !== 'undefined') return false;
  const { statSync } = getBuiltin('node:fs') as typeof import('node:fs');
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The Hub model a source names, or `undefined`: `{ id, revision?, subfolder? }`, or a string
 * `'org/name'` / `'org/name@revision'` that is not an existing local folder (Node) — so
 * `'./org/name'` or `'/models/org/name'` always means a folder or URL.
 *
 * @example
 * hubSourceOf('BAAI/bge-small-en-v1.5@main'); // { id: 'BAAI/bge-small-en-v1.5', revision: 'main' }
 */
export function hubSourceOf(source: ModelSource): HubSource | undefined {
  if (isHubSource(source)) return source;
  if (typeof source !== 'string') return undefined;
  const parsed = parseHubId(source);
  return parsed !== undefined && !localFolderExists(source) ? parsed : undefined;
}

/**
 * Throws a `ModelLoadError` unless `source` is a model source: a non-empty path or URL string, a
 * `URL`, or `{ files }` (an object of file name → contents).
 *
 * @example
 * checkModelSource(undefined, 'loadEncoder'); // ModelLoadError: loadEncoder: the model source must be ...
 */
export function checkModelSource(source: unknown, caller: string): asserts source is ModelSource {
  if (isHubSource(source)) {
    checkHubSource(source, caller);
    return;
  }
  const files = (source as { files?: unknown } | null)?.files;
  const ok = (typeof source === 'string' && source !== '') || source instanceof URL || (typeof source === 'object' && source !== null && typeof files === 'object' && files !== null && !Array.isArray(files));
  if (!ok) throw new ModelLoadError('', `the model source must be a folder path or URL (a non-empty string), a Hugging Face id ('org/name' or { id, revision? }), a URL object, or { files: { 'config.json': ..., ... } }; received ${describeValue(source)}.`, undefined, caller);
}

/**
 * Where a source is, for messages: its path or URL, or "the given files".
 *
 * @example
 * describeSource({ files: {} }); // 'the given files'
 */
export function describeSource(source: ModelSource): string {
  if (isHubSource(source)) return describeHubSource(source);
  return isFileSet(source) ? 'the given files' : String(source);
}
