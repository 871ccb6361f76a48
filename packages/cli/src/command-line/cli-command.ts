import type { CliOption } from './cli-option.js';

/** A command's options by the key its request uses (`promptName`), each naming its flag (`prompt-name`). */
export type OptionRecord = Readonly<Record<string, CliOption<unknown>>>;

/** The values a command line gives for `O`: each option's parsed value under its key. */
export type OptionValues<O extends OptionRecord> = { readonly [K in keyof O]: O[K] extends CliOption<infer T> ? T : never };

/**
 * One `attnkit` command, declared once: its name, what it is for, its usage line, summary, options,
 * examples and notes. `parseCommandLine` parses its arguments from it, `formatHelp` prints its
 * `--help`, and the README's command and option tables are rendered from it.
 *
 * @example
 * export const JOIN_COMMAND = defineCommand({
 *   name: 'join', purpose: 'joins shard outputs', usage: 'attnkit join OUT.npy [--json]', summary: 'Joins the shards of OUT.',
 *   positionals: true, options: { json: OPTIONS.json('a summary', 'a one-line summary on stderr') }, examples: ['attnkit join vectors.npy'],
 * });
 */
export interface CliCommand<O extends OptionRecord = OptionRecord, N extends string = string> {
  /** What follows `attnkit` (`'encode'`); `''` for the demo, the command without a name. */
  readonly name: N;
  /** One line for the command lists of `attnkit --help` and the README. */
  readonly purpose: string;
  /** The synopsis after `Usage:`; each `--option` in it is one of `options`, written as help writes it. */
  readonly usage: string;
  readonly summary: string;
  /** Whether it takes arguments that are not options (files, folders). */
  readonly positionals?: boolean;
  /** Its options, in the order help lists them (`-h, --help` comes last, for every command). */
  readonly options: O;
  readonly examples: readonly string[];
  /** Paragraphs after the examples: output fields, exit codes. */
  readonly notes?: readonly string[];
}

/**
 * The command as it is declared, with its name kept as a literal type (so a table of runners can be
 * checked to have one for every command).
 *
 * @example
 * const REPORT_COMMAND = defineCommand({ name: 'report', purpose: 'backends', usage: 'attnkit report', summary: 'Reports.', options: {}, examples: ['attnkit report'] });
 */
export function defineCommand<const N extends string, O extends OptionRecord>(command: CliCommand<O, N>): CliCommand<O, N> {
  return command;
}

/**
 * How the command is typed, and how its messages start: `'attnkit encode'`, or `'attnkit'` for the demo.
 *
 * @example
 * commandCaller(ENCODE_COMMAND); // 'attnkit encode'
 */
export function commandCaller(command: CliCommand): string {
  return command.name === '' ? 'attnkit' : `attnkit ${command.name}`;
}
