/**
 * The code of the one fenced block between `<!-- consumer:NAME -->` and `<!-- /consumer:NAME -->`
 * in `readme`, exactly as written (the fences and their language left out).
 *
 * @example
 * readmeBlock(readFileSync('README.md', 'utf8'), 'node'); // "// embed.mjs ...\nimport ..."
 */
export function readmeBlock(readme: string, name: string): string {
  const start = `<!-- consumer:${name} -->`;
  const end = `<!-- /consumer:${name} -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`readmeBlock: README.md has no ${start} … ${end} section.`);
  const blocks = [...readme.slice(from + start.length, to).matchAll(/^```[\w-]*\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1) throw new Error(`readmeBlock: the ${start} section must hold one fenced code block; found ${blocks.length}.`);
  return blocks[0]![1]!;
}
