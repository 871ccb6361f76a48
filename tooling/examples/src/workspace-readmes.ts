import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root (this file is tooling/examples/src/workspace-readmes.ts). */
export const ROOT = join(import.meta.dirname, '..', '..', '..');

/** `packages/<name>/README.md` of every package that has one, sorted: a new package is found without being listed. */
export const PACKAGE_READMES = readdirSync(join(ROOT, 'packages'))
  .filter((pkg) => existsSync(join(ROOT, 'packages', pkg, 'README.md')))
  .sort()
  .map((pkg) => `packages/${pkg}/README.md`);

/** A file of the repository, by its path from the root. */
export function readRepoFile(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/**
 * The part of `markdown` under `heading` (a whole line such as `## Install`), up to the next
 * heading of that level or higher (a `# comment` inside a code block is no heading); `''` if it
 * has no such heading.
 *
 * @example
 * section(readme, '## Install'); // "\n```sh\nnpm install @attnkit/masks ...\n```\n"
 */
export function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return '';
  let fenced = false;
  const end = lines.findIndex((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    return i > start && !fenced && new RegExp(`^#{1,${level}} `).test(line);
  });
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}
