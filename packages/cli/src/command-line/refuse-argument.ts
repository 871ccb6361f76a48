import { InvalidArgumentError } from '@attnkit/errors';
import { commandCaller, type CliCommand } from './cli-command.js';

/**
 * Throws the typed usage error of `command` (exit code 2): what was wrong, what was expected and
 * received, then `advice` (a "did you mean") and the usage line with a pointer at `--help`.
 *
 * @example
 * refuseArgument(ENCODE_COMMAND, '--input', 'a JSON object with input_ids: number[][]', 'ids.json');
 * // InvalidArgumentError: attnkit encode: '--input' must be a JSON object with input_ids: number[][]; received ids.json.
 * //   Usage: attnkit encode … (attnkit encode --help lists every option)
 */
export function refuseArgument(command: CliCommand, argument: string, expected: string, received: string, advice?: string): never {
  const caller = commandCaller(command);
  const lists = Object.keys(command.options).length === 0 ? '' : command.name === '' ? ' lists every option and command' : ' lists every option';
  const usage = `Usage: ${command.usage} (${caller} --help${lists})`;
  throw new InvalidArgumentError({ caller, argument, expected, received, hint: advice === undefined ? usage : `${advice} ${usage}` });
}
