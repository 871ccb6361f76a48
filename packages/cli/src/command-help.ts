/** One option of a command, as `--help` lists it. */
export interface CommandOption {
  readonly flag: string;
  readonly description: string;
  /** What applies without the option, said in words (`'wasm'`, `'the embedded attnkit-tiny-bert'`). */
  readonly default?: string;
}

/** What `attnkit <command> --help` prints. */
export interface CommandHelp {
  readonly usage: string;
  readonly summary: string;
  readonly options: readonly CommandOption[];
  readonly examples: readonly string[];
  /** Extra paragraphs (the command list, output fields, exit codes). */
  readonly notes?: readonly string[];
}

/** Exit codes of every command, as help and the README say them. */
export const EXIT_CODES = 'Exit codes: 0 done; 2 a usage or input error (bad option, missing model folder, unwritable --output; the message says what to fix); 1 a bug (please report it).';

/**
 * The help text of a command: usage, summary, each option with its default, examples, notes.
 *
 * @example
 * console.log(formatHelp(ENCODE_HELP));
 */
export function formatHelp(help: CommandHelp): string {
  const width = Math.max(...help.options.map((o) => o.flag.length));
  return [
    `Usage: ${help.usage}`,
    '',
    help.summary,
    '',
    'Options:',
    ...help.options.map((o) => `  ${o.flag.padEnd(width)}  ${o.description}${o.default === undefined ? '' : ` (default: ${o.default})`}`),
    '',
    'Examples:',
    ...help.examples.map((e) => `  ${e}`),
    ...(help.notes ?? []).flatMap((n) => ['', n]),
    '',
    'From a checkout of the repository: npm run demo -- <arguments> (npm run -s demo -- ... keeps npm\'s "> demo" banner off stdout, for --json).',
  ].join('\n');
}

/** Whether `--help` or `-h` is among the arguments (before a `--` that ends the options). */
export function helpRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
