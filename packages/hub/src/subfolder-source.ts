import { describeValue, nodeBuiltin } from '@attnkit/errors';
import { ModelLoadError } from './model-load-error.js';
import { checkModelSource, hubSourceOf, isFileSet, isUrlSource, type ModelSource } from './model-source.js';

const isNode = () => typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string' && typeof document === 'undefined';

/** For a local folder (Node): the real path of `inside` must be within the real path of `root` (no symlinked folder out). */
function checkInsideRealFolder(root: string, inside: string, path: string): void {
  const { realpathSync } = nodeBuiltin('node:fs');
  const { relative, isAbsolute } = nodeBuiltin('node:path');
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(inside);
  } catch {
    return; // missing: the reads will say so
  }
  const rel = relative(realRoot, real);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ModelLoadError('modules.json', `module path ${JSON.stringify(path)} is a symbolic link to ${real}, outside the model folder ${realRoot}; a folder's modules must be inside it.`, undefined, 'subfolderSource');
  }
}

/**
 * `path` as the relative folder it names inside a model folder, segments joined by `/` (`''` for
 * the folder itself; a trailing slash is fine). No `..`, `.`, empty or absolute segments, no scheme:
 * anything else is a `ModelLoadError`.
 *
 * @example
 * relativeFolder('2_Dense/'); // '2_Dense'
 */
export function relativeFolder(path: unknown): string {
  if (typeof path !== 'string') throw new ModelLoadError('modules.json', `module path must be a string; received ${describeValue(path)}.`, undefined, 'subfolderSource');
  const segments = path.split('/').filter((s, i, all) => !(s === '' && i === all.length - 1)); // a trailing slash is fine
  if (path === '' || segments.length === 0) return '';
  if (segments.some((s) => !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(s) || s === '..')) {
    throw new ModelLoadError('modules.json', `module path ${JSON.stringify(path)} must be a relative folder inside the model folder (letters, digits, _ . -; no "..", absolute paths or schemes).`, undefined, 'subfolderSource');
  }
  return segments.join('/');
}

/**
 * The source of a folder inside `source` (a sentence-transformers module folder such as
 * `1_Pooling`, or a Transformer saved in `0_Transformer`). `path` is relative and stays inside:
 * no `..`, `.`, empty or absolute segments, no scheme, and (local folders) no symbolic link to a
 * folder outside; anything else is a `ModelLoadError`. Symbolic links to files (as in the Hugging
 * Face cache, whose snapshot files link to its blobs) are followed.
 *
 * @example
 * const pooling = modelFiles(subfolderSource('./all-MiniLM-L6-v2', '1_Pooling'));
 */
export function subfolderSource(source: ModelSource, path: string): ModelSource {
  checkModelSource(source, 'subfolderSource');
  const relative = relativeFolder(path);
  if (relative === '') return source;
  if (isFileSet(source)) {
    const prefix = `${relative}/`;
    return { files: Object.fromEntries(Object.entries(source.files).filter(([name]) => name.startsWith(prefix)).map(([name, file]) => [name.slice(prefix.length), file])) };
  }
  const hub = hubSourceOf(source);
  if (hub !== undefined) return { ...hub, subfolder: [hub.subfolder, relative].filter((part) => part !== undefined && part !== '').join('/') };
  if (source instanceof URL || isUrlSource(String(source))) return new URL(`${relative}/`, new URL(String(source).replace(/\/?$/, '/'), typeof location === 'undefined' ? undefined : location.href));
  const inside = `${String(source).replace(/[\\/]+$/, '')}/${relative}`;
  if (isNode()) checkInsideRealFolder(String(source), inside, path);
  return inside;
}
