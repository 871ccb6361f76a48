import { describe, expect, it } from 'vitest';
import { defineCommand } from './cli-command.js';
import { formatHelp, helpRequested } from './command-help.js';
import { switchOption, valueOption } from './option-kinds.js';

const THING = defineCommand({
  name: 'thing',
  purpose: 'does a thing',
  usage: 'attnkit thing [--fast] [--size N]',
  summary: 'Does a thing.',
  options: { fast: switchOption({ name: 'fast', help: 'go fast', default: 'off' }), size: valueOption({ name: 'size', placeholder: 'N', help: 'how big', parse: (value) => value }) },
  examples: ['attnkit thing --fast', 'attnkit thing --size 3'],
  notes: ['Exit codes: 0 done.'],
});

describe('formatHelp', () => {
  it('prints the usage, the summary, each option (aligned, -h, --help last) with its default, the examples and the notes', () => {
    expect(formatHelp(THING).split('\n')).toEqual([
      'Usage: attnkit thing [--fast] [--size N]',
      '',
      'Does a thing.',
      '',
      'Options:',
      '  --fast      go fast (default: off)',
      '  --size N    how big',
      '  -h, --help  print this help',
      '',
      'Examples:',
      '  attnkit thing --fast',
      '  attnkit thing --size 3',
      '',
      'Exit codes: 0 done.',
      '',
      'From a checkout of the repository: npm run demo -- <arguments> (npm run -s demo -- ... keeps npm\'s "> demo" banner off stdout, for --json).',
    ]);
  });

  it('given the commands, adds the second usage line and the list of commands (the demo as "(none)") before the notes', () => {
    const demo = defineCommand({ ...THING, name: '', purpose: 'the demo', usage: 'attnkit [--fast]' });
    const lines = formatHelp(demo, [demo, THING]).split('\n');
    expect(lines.slice(0, 2)).toEqual(['Usage: attnkit [--fast]', '       attnkit <thing> [options]   (attnkit <command> --help for each)']);
    expect(lines.slice(lines.indexOf('Commands:'), lines.indexOf('Commands:') + 4)).toEqual(['Commands:', '  (none)       the demo', '  thing        does a thing (attnkit thing --help)', '']);
    expect(lines[lines.indexOf('Commands:') + 4]).toBe('Exit codes: 0 done.');
  });
});

describe('helpRequested', () => {
  it.each([
    [['--help'], true],
    [['-h'], true],
    [['--text', 'x', '--help'], true],
    [['--text=--help'], false],
    [['--text', 'x', '--', '--help'], false],
    [['--helpful'], false],
    [[], false],
  ])('%j -> %s', (argv, expected) => {
    expect(helpRequested(argv)).toBe(expected);
  });
});
