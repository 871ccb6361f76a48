import { describe, expect, it } from 'vitest';
import { formatHelp, helpRequested } from './command-help.js';

describe('formatHelp', () => {
  it('prints the usage, the summary, each option (aligned) with its default, the examples and the notes', () => {
    const text = formatHelp({
      usage: 'attnkit thing [--fast] [--size N]',
      summary: 'Does a thing.',
      options: [{ flag: '--fast', description: 'go fast', default: 'off' }, { flag: '--size N', description: 'how big' }],
      examples: ['attnkit thing --fast', 'attnkit thing --size 3'],
      notes: ['Exit codes: 0 done.'],
    });
    expect(text.split('\n')).toEqual([
      'Usage: attnkit thing [--fast] [--size N]',
      '',
      'Does a thing.',
      '',
      'Options:',
      '  --fast    go fast (default: off)',
      '  --size N  how big',
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
