/** A ```ts or ```js block of a README, and what the README says about it. */
export interface Snippet {
  /** The README's path from the repository root: `packages/masks/README.md`. */
  readonly readme: string;
  /** The README line of the block's first line of code (1-based). */
  readonly line: number;
  readonly language: 'ts' | 'js';
  /**
   * A fragment (`<!-- fragment -->` on the line before the fence) is not a complete program: it is
   * typechecked after its `declarations` and never run.
   */
  readonly fragment: boolean;
  /** `<!-- fragment: declare const encoder: Encoder; -->`: the TypeScript a fragment is checked after. */
  readonly declarations: string;
  /** The block's code, as written. */
  readonly code: string;
}

const OPEN = /^```(ts|js)\s*$/;
const FRAGMENT = /^<!-- fragment(?:: ([\s\S]*?))? -->$/;

/**
 * Every ```ts and ```js block of a README, in order. A block whose fence follows the line
 * `<!-- fragment -->` (or `<!-- fragment: <declarations> -->`) is a fragment; any other is a
 * program. Other languages (sh, html, yaml) are left out.
 *
 * @example
 * readmeSnippets('packages/masks/README.md', readFileSync('packages/masks/README.md', 'utf8'));
 * // [{ readme: 'packages/masks/README.md', line: 16, language: 'ts', fragment: false, declarations: '', code: "import ..." }]
 */
export function readmeSnippets(readme: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```/.exec(lines[i]!);
    if (fence === null) continue;
    const end = lines.findIndex((line, j) => j > i && line.trimEnd() === '```');
    if (end < 0) throw new Error(`readmeSnippets: ${readme}:${i + 1} opens a code block that never closes.`);
    const language = OPEN.exec(lines[i]!)?.[1] as 'ts' | 'js' | undefined;
    if (language !== undefined) {
      const marker = FRAGMENT.exec(lines[i - 1] ?? '');
      snippets.push({ readme, line: i + 2, language, fragment: marker !== null, declarations: marker?.[1] ?? '', code: `${lines.slice(i + 1, end).join('\n')}\n` });
    }
    i = end;
  }
  return snippets;
}

/**
 * The packages a snippet uses by name: `import … from 'x'`, `import 'x'`, `import('x')` and
 * `import.meta.resolve('x')`, as package names (`@attnkit/backends/vite` → `@attnkit/backends`),
 * sorted; relative paths and `node:` built-ins left out.
 *
 * @example
 * importedPackages("import { useBackend } from '@attnkit/backends/vite';\nimport 'node:fs';"); // ['@attnkit/backends']
 */
export function importedPackages(code: string): string[] {
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bimport\.meta\.resolve\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  const names = specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('node:')).map((s) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
  return [...new Set(names)].sort();
}
