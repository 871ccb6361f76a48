import { commandCaller, type CliCommand } from './cli-command.js';
import { formatFlag } from './cli-option.js';
import { OPTIONS } from './option-table.js';

/** Exit codes of every command, as help and the README say them. */
export const EXIT_CODES = 'Exit codes: 0 done; 2 a usage or input error (bad option, missing model folder, unwritable --output; the message says what to fix); 1 a bug (please report it).';

/**
 * The `--help` of a command: usage, summary, each option (aligned, `-h, --help` last) with its
 * default, examples, then — given `commands`, for `attnkit --help` — the list of commands, then the
 * notes.
 *
 * @example
 * console.log(formatHelp(ENCODE_COMMAND));
 * console.log(formatHelp(DEMO_COMMAND, COMMANDS));
 */
export function formatHelp(command: CliCommand, commands: readonly CliCommand[] = []): string {
  const options = [...Object.values(command.options), OPTIONS.help];
  const width = Math.max(...options.map((o) => formatFlag(o).length));
  const named = commands.filter((c) => c.name !== '');
  return [
    `Usage: ${command.usage}`,
    ...(named.length === 0 ? [] : [`       attnkit <${named.map((c) => c.name).join('|')}> [options]   (attnkit <command> --help for each)`]),
    '',
    command.summary,
    '',
    'Options:',
    ...options.map((o) => `  ${formatFlag(o).padEnd(width)}  ${o.help}${o.default === undefined ? '' : ` (default: ${o.default})`}`),
    '',
    'Examples:',
    ...command.examples.map((e) => `  ${e}`),
    ...(commands.length === 0 ? [] : ['', 'Commands:', ...commands.map((c) => `  ${(c.name === '' ? '(none)' : c.name).padEnd(12)} ${c.purpose}${c.name === '' ? '' : ` (${commandCaller(c)} --help)`}`)]),
    ...(command.notes ?? []).flatMap((n) => ['', n]),
    '',
    'From a checkout of the repository: npm run demo -- <arguments> (npm run -s demo -- ... keeps npm\'s "> demo" banner off stdout, for --json).',
  ].join('\n');
}

/** Whether `--help` or `-h` is among the arguments (before a `--` that ends the options). */
export function helpRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
