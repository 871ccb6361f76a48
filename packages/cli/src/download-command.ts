import { downloadModel, hubSourceOf, type DownloadedModel } from '@attnkit/hub';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { pathOption, repeatedOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';

/** `--cache-dir DIR`: the Hugging Face cache folder (the `HF_*` default without it). */
export const CACHE_DIR_OPTION = pathOption({ name: 'cache-dir', placeholder: 'DIR', help: 'the Hugging Face cache folder', default: 'HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub (where Python keeps models)' });

/** `attnkit download`. */
export const DOWNLOAD_COMMAND = defineCommand({
  name: 'download',
  purpose: 'fills the Hugging Face cache with a model by id, so every later load (attnkit or Python) needs no network',
  usage: 'attnkit download <org/name[@revision]> [--include GLOB ...] [--cache-dir DIR] [--json]',
  summary: "Downloads every file of a model's revision from the Hugging Face Hub into the on-disk cache Python's huggingface_hub uses (blobs, snapshots, refs), as hf download does: once, resumable, shared with other processes. Prints the snapshot folder: the model as a folder. HF_TOKEN is sent for gated or private models (never printed); HF_ENDPOINT names another Hub.",
  positionals: true,
  options: {
    include: repeatedOption({ name: 'include', placeholder: 'GLOB', help: 'download only the files matching it (* and ? wildcards, matched against the path in the repository); repeat for more', default: 'every file', parse: (values) => values }),
    cacheDir: CACHE_DIR_OPTION,
    json: OPTIONS.json('{ id, commit, folder, files }', 'the snapshot folder'),
  },
  examples: ['attnkit download sentence-transformers/all-MiniLM-L6-v2', 'attnkit download BAAI/bge-small-en-v1.5@main --include "*.json" --include "*.safetensors"'],
  notes: ['Afterwards, attnkit encode --model sentence-transformers/all-MiniLM-L6-v2 loads from the cache; HF_HUB_OFFLINE=1 makes sure nothing is asked of the Hub.', EXIT_CODES],
});

/** What `attnkit download` was asked to do. */
export interface DownloadRequest {
  readonly id: string;
  readonly include: readonly string[];
  readonly cacheDir: string | undefined;
  readonly json: boolean;
}

/**
 * A glob over repository paths: `*` any characters but `/`, `**` any characters, `?` one character.
 *
 * @example
 * globMatcher('*.json')('config.json'); // true
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]').replace(/\u0000/g, '.*');
  const regex = new RegExp(`^${pattern}$`);
  return (path) => regex.test(path) || (!glob.includes('/') && regex.test(path.slice(path.lastIndexOf('/') + 1)));
}

/**
 * Parses `attnkit download` arguments: one model id, then options.
 *
 * @example
 * parseDownloadArgs(['acme/tiny', '--include', '*.json']); // { id: 'acme/tiny', include: ['*.json'], ... }
 */
export function parseDownloadArgs(argv: readonly string[]): DownloadRequest {
  const { values, positionals, refuse } = parseCommandLine(DOWNLOAD_COMMAND, argv);
  if (positionals.length !== 1 || hubSourceOf(positionals[0] as string) === undefined) refuse('model', "one Hugging Face id: 'org/name' or 'org/name@revision'", positionals.length === 0 ? 'none' : positionals.map((p) => JSON.stringify(p)).join(', '));
  return { id: positionals[0] as string, ...values };
}

/**
 * Downloads the model into the cache (`downloadModel` of `@attnkit/hub`).
 *
 * @example
 * const { folder } = await runDownload(parseDownloadArgs(['acme/tiny']));
 */
export function runDownload(request: DownloadRequest, onProgress?: (file: string, loaded: number, total: number | undefined) => void): Promise<DownloadedModel> {
  const matchers = request.include.map(globMatcher);
  return downloadModel(request.id, {
    ...(request.cacheDir === undefined ? {} : { hub: { cacheDir: request.cacheDir } }),
    ...(matchers.length === 0 ? {} : { include: (path: string) => matchers.some((match) => match(path)) }),
    ...(onProgress === undefined ? {} : { onProgress: (p) => onProgress(p.file, p.loaded, p.total) }),
  });
}
