/** The statuses a package can have (the root README's packages table says what each means). */
export const STATUSES = ['ready', 'experimental', 'deprecated'] as const;

/** One of {@link STATUSES}. */
export type Status = (typeof STATUSES)[number];

const LINE = new RegExp(`^\\*\\*Status:\\*\\* (${STATUSES.join('|')})$`);

/**
 * The status a package README states: the line `**Status:** <status>` right after its title (line
 * 3, after a blank line). `undefined` when it has none there; a `Status:` line elsewhere or with
 * another word is an error, so a misplaced or misspelled one is never read as "no status".
 *
 * @example
 * readmeStatus('# @attnkit/masks\n\n**Status:** ready\n\nWhich keys may a query attend to? ...'); // 'ready'
 */
export function readmeStatus(readme: string, where = 'README'): Status | undefined {
  const lines = readme.split('\n');
  const stated = lines.flatMap((line, i) => (/^\*\*Status:\*\*/.test(line) ? [i] : []));
  if (stated.length === 0) return undefined;
  const at = stated[0]!;
  const status = LINE.exec(lines[at]!)?.[1] as Status | undefined;
  if (stated.length > 1 || at !== 2 || !lines[0]!.startsWith('# ') || status === undefined) {
    throw new Error(`readmeStatus: ${where} must state its status once, on line 3 right after its title, as \`**Status:** ${STATUSES.join(' | ')}\`; found ${JSON.stringify(lines[at])} on line ${at + 1}${stated.length > 1 ? ` and ${stated.length - 1} more` : ''}.`);
  }
  return status;
}

/**
 * The rows of the root README's packages table: each package's README (from its link:
 * `packages/masks` → `packages/masks/README.md`) and the status column.
 *
 * @example
 * tableStatuses(readFileSync('README.md', 'utf8')); // [{ readme: 'packages/errors/README.md', status: 'ready' }, ...]
 */
export function tableStatuses(rootReadme: string): Array<{ readonly readme: string; readonly status: string }> {
  const start = rootReadme.indexOf('\n## Packages\n');
  const section = rootReadme.slice(start, rootReadme.indexOf('\n## ', start + 1));
  const header = /^\| package \|.*\| status \|$/m.exec(section);
  if (start < 0 || header === null) throw new Error('tableStatuses: the root README has no "## Packages" table whose last column is "status".');
  return [...section.matchAll(/^\| \[`[^`]+`\]\(([^)]+)\) \|.*\| ([^|]*) \|$/gm)].map((m) => ({
    readme: m[1]!.endsWith('.md') ? m[1]! : `${m[1]!}/README.md`,
    status: m[2]!.trim(),
  }));
}
