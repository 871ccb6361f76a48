import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { defineCommand } from './cli-command.js';
import { pathOption, valueOption, wholeNumberOption } from './option-kinds.js';
import { OPTIONS } from './option-table.js';
import { parseCommandLine } from './parse-command-line.js';

/** A command with one option of every kind, and one that takes positionals. */
const TOOL = defineCommand({
  name: 'tool',
  purpose: 'a test command',
  usage: 'attnkit tool [--text "..." ...] [--backend cpu|wasm] [--runs N] [--output out.json] [--mode a|b] [--json]',
  summary: 'Tests the parser.',
  options: {
    texts: OPTIONS.text,
    backend: OPTIONS.backend,
    runs: wholeNumberOption({ name: 'runs', help: 'runs', min: 1, max: 10, fallback: 3 }),
    output: pathOption({ name: 'output', placeholder: 'out.json', help: 'where' }),
    mode: valueOption({ name: 'mode', placeholder: 'a|b', help: 'a or b', parse: (value) => value }),
    json: OPTIONS.json('the result', 'a table'),
  },
  examples: ['attnkit tool --json'],
});
const FILES = defineCommand({ name: 'files', purpose: 'takes files', usage: 'attnkit files FILE... [--json]', summary: 'Files.', positionals: true, options: { json: OPTIONS.json('the result', 'a table') }, examples: ['attnkit files a b'] });
const NONE = defineCommand({ name: 'none', purpose: 'takes nothing', usage: 'attnkit none', summary: 'Nothing.', options: {}, examples: ['attnkit none'] });
const USAGE = 'Usage: attnkit tool [--text "..." ...] [--backend cpu|wasm] [--runs N] [--output out.json] [--mode a|b] [--json] (attnkit tool --help lists every option)';

/** The usage error's message, checked to be the typed one. */
function refusal(run: () => unknown): string {
  const error = thrown(run);
  expect(error).toBeInstanceOf(InvalidArgumentError);
  return error.message;
}

describe('parseCommandLine', () => {
  it('gives every option its default when none is given', () => {
    const { values, positionals } = parseCommandLine(TOOL, []);
    expect(values).toEqual({ texts: [], backend: 'wasm', runs: 3, output: undefined, mode: undefined, json: false });
    expect(positionals).toEqual([]);
  });

  it('reads --name value, --name=value and switches; a repeated option keeps every value in order, another keeps the last', () => {
    const { values } = parseCommandLine(TOOL, ['--text', 'a', '--text=b', '--runs=7', '--output', 'out.json', '--backend', 'wasm', '--backend', 'cpu', '--json', '--text', 'c']);
    expect(values).toEqual({ texts: ['a', 'b', 'c'], backend: 'cpu', runs: 7, output: resolve('out.json'), mode: undefined, json: true });
  });

  it('takes a value that starts with a dash only as --name=value; -- ends the options', () => {
    expect(parseCommandLine(TOOL, ['--mode=-x']).values.mode).toBe('-x');
    expect(parseCommandLine(FILES, ['--json', '--', '--json', '-f']).positionals).toEqual(['--json', '-f']);
  });

  it.each([
    [['--backend', 'webgl'], "attnkit tool: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received webgl."],
    [['--backend='], "attnkit tool: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received \"\"."],
    [['--runs', '0'], 'attnkit tool: \'--runs\' must be a whole number from 1 to 10; received "0".'],
    [['--runs=-1'], 'attnkit tool: \'--runs\' must be a whole number from 1 to 10; received "-1".'],
    [['--text', 'a', '--text', ' '], 'attnkit tool: \'--text\' must be non-empty text; received "".'],
  ])('refuses the bad value %j, naming the option, with the usage', (argv, message) => {
    expect(refusal(() => parseCommandLine(TOOL, argv))).toBe(`${message} ${USAGE}`);
  });

  it.each([
    [['--txt', 'a'], "received Unknown option '--txt'. Did you mean --text? "],
    [['--json', '--Runs', '2'], "received Unknown option '--Runs'. Did you mean --runs? "],
    [['--hepl'], "received Unknown option '--hepl'. Did you mean --help? "],
    [['--fast'], "received Unknown option '--fast'. "], // nothing close: no suggestion
    [['-x'], "received Unknown option '-x'. "],
    [['--__proto__'], "received Unknown option '--__proto__'. "],
  ])('refuses the unknown option in %j, suggesting the closest name when one is close', (argv, received) => {
    expect(refusal(() => parseCommandLine(TOOL, argv))).toBe(`attnkit tool: 'arguments' must be the options of attnkit tool; ${received}${USAGE}`);
  });

  it('names the first unknown option, after known ones and their values', () => {
    expect(refusal(() => parseCommandLine(TOOL, ['--text=--txt', '--runs', '2', '--mdoe', 'a', '--txt']))).toContain("received Unknown option '--mdoe'. Did you mean --mode?");
  });

  it.each([
    [['--json=yes'], "Option '--json' does not take an argument"],
    [['--runs'], "Option '--runs <value>' argument missing"],
    [['--text', '--json'], "Option '--text' argument is ambiguous"],
    [['stray'], "Unexpected argument 'stray'. This command does not take positional arguments"],
  ])('refuses the malformed %j with what node:util parseArgs says (one full stop before the usage)', (argv, received) => {
    const message = refusal(() => parseCommandLine(TOOL, argv));
    expect(message.startsWith(`attnkit tool: 'arguments' must be the options of attnkit tool; received ${received}`)).toBe(true);
    expect(message.endsWith(`. ${USAGE}`)).toBe(true);
    expect(message).not.toContain(`.. ${USAGE}`);
  });

  it('a command without options expects none; the demo is "the demo" and its help lists the commands too', () => {
    expect(refusal(() => parseCommandLine(NONE, ['--json']))).toBe("attnkit none: 'arguments' must be none; received Unknown option '--json'. Usage: attnkit none (attnkit none --help)");
    const demo = defineCommand({ ...TOOL, name: '', usage: 'attnkit [--json]' });
    expect(refusal(() => parseCommandLine(demo, ['--jsn']))).toBe("attnkit: 'arguments' must be the options of the demo; received Unknown option '--jsn'. Did you mean --json? Usage: attnkit [--json] (attnkit --help lists every option and command)");
  });

  it('refuse() throws the command\'s usage error about any argument', () => {
    const { refuse } = parseCommandLine(FILES, ['a']);
    expect(refusal(() => refuse('FILE', 'two files', '1'))).toBe("attnkit files: 'FILE' must be two files; received 1. Usage: attnkit files FILE... [--json] (attnkit files --help lists every option)");
  });
});
