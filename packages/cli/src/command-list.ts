import { BENCH_COMMAND } from './bench-command.js';
import { CACHE_COMMAND } from './cache-command.js';
import { DEMO_COMMAND } from './demo-command.js';
import { DOWNLOAD_COMMAND } from './download-command.js';
import { EMBED_COMMAND } from './embed/embed-command.js';
import { JOIN_COMMAND } from './embed/join-command.js';
import { ENCODE_COMMAND } from './encode-command.js';
import { GENERATE_COMMAND } from './generate-command.js';
import { QUANTIZE_COMMAND } from './quantize-command.js';
import { REPORT_COMMAND } from './report-command.js';
import { SEARCH_COMMAND } from './search/search-command.js';
import { SIMILARITY_COMMAND } from './similarity-command.js';
import { TRAIN_COMMAND } from './train-command.js';

/**
 * Every `attnkit` command, the demo first, in the order `attnkit --help`, its "unknown command"
 * message and the README list them.
 *
 * @example
 * COMMANDS.map((c) => c.name); // ['', 'encode', 'similarity', 'embed', 'join', 'search', 'generate', 'bench', 'train', 'quantize', 'download', 'cache', 'report']
 */
export const COMMANDS = [DEMO_COMMAND, ENCODE_COMMAND, SIMILARITY_COMMAND, EMBED_COMMAND, JOIN_COMMAND, SEARCH_COMMAND, GENERATE_COMMAND, BENCH_COMMAND, TRAIN_COMMAND, QUANTIZE_COMMAND, DOWNLOAD_COMMAND, CACHE_COMMAND, REPORT_COMMAND] as const;

/** The name of a command other than the demo: `'encode'`, `'similarity'`, ... */
export type CommandName = Exclude<(typeof COMMANDS)[number]['name'], ''>;
