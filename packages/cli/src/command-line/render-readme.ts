import { commandCaller, type CliCommand } from './cli-command.js';
import { formatFlag } from './cli-option.js';

const REGION = /(<!-- generated: ([^>\n]+?) -->\n)[\s\S]*?(<!-- end generated -->)/g;

/**
 * The README with its generated regions rendered again from the command declarations: between
 * `<!-- generated: commands -->` and `<!-- end generated -->` the table of commands, between
 * `<!-- generated: options of attnkit encode -->` and `<!-- end generated -->` that command's options
 * (`-h, --help`, which every command takes, is left out). Everything outside the regions is kept as it
 * is. A region that names no command is an error.
 *
 * @example
 * writeFileSync('README.md', renderReadme(readFileSync('README.md', 'utf8'), COMMANDS));
 */
export function renderReadme(readme: string, commands: readonly CliCommand[]): string {
  return readme.replace(REGION, (_, open: string, region: string, close: string) => `${open}${renderRegion(region, commands)}\n${close}`);
}

/**
 * The names of the generated regions of a README, in order: `'commands'`, `'options of attnkit encode'`, ...
 *
 * @example
 * generatedRegions(readme); // ['commands', 'options of attnkit', 'options of attnkit encode', ...]
 */
export function generatedRegions(readme: string): string[] {
  return [...readme.matchAll(REGION)].map((m) => m[2]!);
}

function renderRegion(region: string, commands: readonly CliCommand[]): string {
  if (region === 'commands') return table(['command', 'what it does'], commands.map((c) => [`\`${commandCaller(c)}\`${c.name === '' ? ' (no command)' : ''}`, prose(c.purpose)]));
  const command = commands.find((c) => `options of ${commandCaller(c)}` === region);
  if (command === undefined) throw new Error(`README region '${region}' names no command: expected 'commands' or 'options of ' and one of ${commands.map(commandCaller).join(', ')}.`);
  return table(['option', 'what it does', 'default'], Object.values(command.options).map((o) => [`\`${cell(formatFlag(o))}\``, prose(o.help), o.default === undefined ? '' : prose(o.default)]));
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Text for a table cell: `|` escaped (also inside code), `<` and `>` as entities, `--options` as code. */
function prose(text: string): string {
  return cell(text.replaceAll('<', '&lt;').replaceAll('>', '&gt;')).replace(/(?<![\w`-])(--[a-z][a-z-]*)/g, '`$1`');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}
