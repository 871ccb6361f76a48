import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-list.js';
import { commandCaller } from './command-line/cli-command.js';
import { formatFlag } from './command-line/cli-option.js';

describe('COMMANDS', () => {
  it('is the demo and the twelve named commands, each named once', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(['', 'encode', 'similarity', 'embed', 'join', 'search', 'generate', 'bench', 'train', 'quantize', 'download', 'cache', 'report']);
  });

  it.each(COMMANDS.map((c) => [commandCaller(c), c] as const))('%s: options named once (help is every command\'s), its usage writes each option it names as help does, its examples run it', (caller, command) => {
    const options = Object.values(command.options);
    const names = options.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('help');
    const named = [...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!);
    for (const name of named) {
      const option = options.find((o) => o.name === name);
      expect(option, `${caller} usage names --${name}, which it does not take`).toBeDefined();
      expect(command.usage).toContain(formatFlag(option!));
    }
    // the usage names every option, or ends with [options] for the rest
    if (!command.usage.endsWith('[options]')) expect([...new Set(named)].sort()).toEqual([...names].sort());
    expect(command.usage.startsWith(caller)).toBe(true);
    expect(command.examples.filter((e) => e.startsWith(command.name === '' ? 'attnkit --' : `${caller} `)).length).toBeGreaterThanOrEqual(command.name === '' ? 2 : 1);
  });
});
