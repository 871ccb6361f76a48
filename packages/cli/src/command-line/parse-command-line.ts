import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliCommand, OptionRecord, OptionValues } from './cli-command.js';
import { closestName } from '@attnkit/errors';
import { OPTIONS } from './option-table.js';
import { refuseArgument } from './refuse-argument.js';

/** A parsed command line: each option's value, the other arguments, and the command's usage error. */
export interface CommandLine<O extends OptionRecord> {
  readonly values: OptionValues<O>;
  /** The arguments that are not options, in order (only for commands that take them). */
  readonly positionals: readonly string[];
  /** Throws the command's typed usage error about `argument` (a check across options, a positional). */
  readonly refuse: (argument: string, expected: string, received: string) => never;
}

/**
 * Parses `argv` as `command` declares it, the one parser of every `attnkit` command: options as
 * `--name value`, `--name=value` or a switch `--name`; repeated options keep every value; `--`
 * ends the options. Each option's value is then read by its own entry (defaults, numbers, backends,
 * paths), in the order the command lists them. Anything else is the command's typed usage error
 * (exit code 2) ending with the usage line: an unknown option (with "Did you mean --text?" when one
 * is close), a value for a switch, a missing value, an argument where none is taken.
 *
 * @example
 * const { values } = parseCommandLine(SIMILARITY_COMMAND, ['--text', 'a cat', '--text', 'a dog', '--json']);
 * values.texts; // ['a cat', 'a dog']
 */
export function parseCommandLine<O extends OptionRecord>(command: CliCommand<O>, argv: readonly string[]): CommandLine<O> {
  const refuse = (argument: string, expected: string, received: string): never => refuseArgument(command, argument, expected, received);
  const declared = Object.entries(command.options);
  const config = Object.fromEntries(declared.map(([, o]) => [o.name, { type: o.placeholder === undefined ? ('boolean' as const) : ('string' as const), multiple: o.multiple }]));
  const allowPositionals = command.positionals === true;
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: config, allowPositionals, strict: true });
  } catch (error) {
    const expected = declared.length === 0 ? 'none' : `the options of ${command.name === '' ? 'the demo' : `attnkit ${command.name}`}`;
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? firstUnknownOption(argv, config) : undefined;
    if (unknown === undefined) return refuse('arguments', expected, (error as Error).message.replace(/\.$/, '')); // the error adds the full stop
    const meant = closestName(unknown.name, [...declared.map(([, o]) => o.name), OPTIONS.help.name]);
    return refuseArgument(command, 'arguments', expected, `Unknown option '${unknown.rawName}'`, meant === undefined ? undefined : `Did you mean --${meant}?`);
  }
  const values = Object.fromEntries(declared.map(([key, option]) => [key, option.read(parsed.values[option.name] as string | boolean | string[] | undefined, (expected, received) => refuse(`--${option.name}`, expected, received))]));
  return { values: values as OptionValues<O>, positionals: parsed.positionals, refuse };
}

/** The option strict parsing stopped at (the first one `config` does not name): the same arguments, read leniently as tokens. */
function firstUnknownOption(argv: readonly string[], config: ParseArgsConfig['options']): { name: string; rawName: string } | undefined {
  const { tokens } = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) if (token.kind === 'option' && !Object.hasOwn(config ?? {}, token.name)) return token;
  return undefined;
}
