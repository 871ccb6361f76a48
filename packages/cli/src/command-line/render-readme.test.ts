import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../command-list.js';
import { commandCaller, defineCommand } from './cli-command.js';
import { switchOption, valueOption } from './option-kinds.js';
import { generatedRegions, renderReadme } from './render-readme.js';

const README = new URL('../../README.md', import.meta.url);

describe('renderReadme', () => {
  const tool = defineCommand({
    name: 'tool',
    purpose: 'does <things> with --fast',
    usage: 'attnkit tool [--mode a|b] [--fast]',
    summary: 'A tool.',
    options: { mode: valueOption({ name: 'mode', placeholder: 'a|b', help: 'a or b', default: 'a', parse: (v) => v }), fast: switchOption({ name: 'fast', help: 'skip <slow> checks (see --mode)' }) },
    examples: ['attnkit tool'],
  });

  it('renders the command table and an option table (no -h, --help) into the marked regions and leaves the rest as it is', () => {
    const readme = '# x\n\n<!-- generated: commands -->\nold\n<!-- end generated -->\n\ntext\n\n<!-- generated: options of attnkit tool -->\n<!-- end generated -->\n';
    expect(renderReadme(readme, [tool])).toBe(
      [
        '# x',
        '',
        '<!-- generated: commands -->',
        '| command | what it does |',
        '| --- | --- |',
        '| `attnkit tool` | does &lt;things&gt; with `--fast` |',
        '<!-- end generated -->',
        '',
        'text',
        '',
        '<!-- generated: options of attnkit tool -->',
        '| option | what it does | default |',
        '| --- | --- | --- |',
        '| `--mode a\\|b` | a or b | a |',
        '| `--fast` | skip &lt;slow&gt; checks (see `--mode`) |  |',
        '<!-- end generated -->',
        '',
      ].join('\n'),
    );
  });

  it('refuses a region that names no command', () => {
    expect(() => renderReadme('<!-- generated: options of attnkit nothing -->\n<!-- end generated -->', [tool])).toThrow("README region 'options of attnkit nothing' names no command");
  });
});

describe('the README of @attnkit/cli', () => {
  const readme = readFileSync(README, 'utf8');

  it('has the command table and the options of every command that takes any', () => {
    const expected = ['commands', ...COMMANDS.filter((c) => Object.keys(c.options).length > 0).map((c) => `options of ${commandCaller(c)}`)];
    expect(expected).toHaveLength(13); // the demo and 11 commands with options, and the command table
    expect(generatedRegions(readme).sort()).toEqual(expected.sort());
  });

  it('is up to date with the commands and options (ATTNKIT_UPDATE_DOCS=1 or pnpm --filter @attnkit/cli docs:readme rewrites it)', () => {
    const rendered = renderReadme(readme, COMMANDS);
    if (process.env['ATTNKIT_UPDATE_DOCS'] === '1') writeFileSync(README, rendered);
    else expect(readme, 'packages/cli/README.md is out of date: run pnpm --filter @attnkit/cli docs:readme').toBe(rendered);
  });
});
