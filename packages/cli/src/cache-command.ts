import { deleteCachedModel, scanHubCache, type CachedModel } from '@attnkit/hub';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { valueOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';
import { CACHE_DIR_OPTION } from './download-command.js';

/** `attnkit cache`. */
export const CACHE_COMMAND = defineCommand({
  name: 'cache',
  purpose: 'lists (ls) or deletes (rm) the models in the Hugging Face cache, as hf cache does',
  usage: 'attnkit cache ls [--cache-dir DIR] [--json] | attnkit cache rm <org/name> [--revision REV] [--cache-dir DIR] [--json]',
  summary: "The models in the on-disk cache Python's huggingface_hub and attnkit share: ls lists each with its size on disk, refs and snapshots, largest first; rm deletes a model, or one revision of it (its snapshot, the refs that point at it and the blobs no other snapshot links).",
  positionals: true,
  options: {
    revision: valueOption({ name: 'revision', placeholder: 'REV', help: 'with rm: only this revision (a branch, tag or commit)', default: 'the whole model', parse: (value) => value }),
    cacheDir: CACHE_DIR_OPTION,
    json: OPTIONS.json('the models (ls) or { id, revision, freed } (rm)', 'a table (ls) or a line (rm)'),
  },
  examples: ['attnkit cache ls', 'attnkit cache rm acme/old-model', 'attnkit cache rm BAAI/bge-small-en-v1.5 --revision v1'],
  notes: [EXIT_CODES],
});

/** What `attnkit cache` was asked to do. */
export type CacheRequest =
  | { readonly action: 'ls'; readonly cacheDir: string | undefined; readonly json: boolean }
  | { readonly action: 'rm'; readonly id: string; readonly revision: string | undefined; readonly cacheDir: string | undefined; readonly json: boolean };

/**
 * Parses `attnkit cache` arguments: `ls`, or `rm` and a model id, then options.
 *
 * @example
 * parseCacheArgs(['rm', 'acme/tiny', '--revision', 'v1']); // { action: 'rm', id: 'acme/tiny', revision: 'v1', ... }
 */
export function parseCacheArgs(argv: readonly string[]): CacheRequest {
  const { values, positionals, refuse } = parseCommandLine(CACHE_COMMAND, argv);
  const [action, ...rest] = positionals;
  if (action === 'ls' && rest.length === 0) {
    if (values.revision !== undefined) refuse('revision', 'none with ls (it lists every revision)', values.revision);
    return { action, cacheDir: values.cacheDir, json: values.json };
  }
  if (action === 'rm' && rest.length === 1) return { action, id: rest[0] as string, revision: values.revision, cacheDir: values.cacheDir, json: values.json };
  return refuse('action', "ls, or rm and one model id ('org/name')", positionals.length === 0 ? 'none' : positionals.map((p) => JSON.stringify(p)).join(' '));
}

/** Bytes as people read them: `90.9 MB`. */
function bytes(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`;
}

/**
 * The `attnkit cache ls` table: one row per model, largest first.
 *
 * @example
 * console.log(formatCacheList(scanHubCache()));
 */
export function formatCacheList(models: readonly CachedModel[]): string {
  if (models.length === 0) return 'The cache holds no model.';
  const rows = models.map((m) => [m.id, bytes(m.size), String(m.revisions.length), Object.keys(m.refs).join(', ') || '-', m.lastModified === 0 ? '-' : new Date(m.lastModified).toISOString().slice(0, 10)]);
  const header = ['model', 'size', 'revisions', 'refs', 'modified'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i] as number)).join('  ').trimEnd()).join('\n');
}

/**
 * Lists or deletes (`scanHubCache`, `deleteCachedModel` of `@attnkit/hub`).
 *
 * @example
 * const listed = runCache(parseCacheArgs(['ls'])); // CachedModel[]
 */
export function runCache(request: CacheRequest): CachedModel[] | { readonly id: string; readonly revision: string | undefined; readonly freed: number } {
  const hub = request.cacheDir === undefined ? {} : { hub: { cacheDir: request.cacheDir } };
  if (request.action === 'ls') return scanHubCache(hub);
  return { id: request.id, revision: request.revision, freed: deleteCachedModel(request.id, { ...hub, ...(request.revision === undefined ? {} : { revision: request.revision }) }) };
}
