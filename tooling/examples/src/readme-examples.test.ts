// Every ```ts and ```js block of every package README and of the root README, as a user copies it.
// - Typechecked, all in one `tsc -b` run: the package READMEs' blocks as strictly as the packages
//   themselves (tooling/typescript-config), the root README's JavaScript as a user's `strict`
//   TypeScript project would check it. A fragment (`<!-- fragment -->` before its fence, see
//   readme-snippets.ts) is checked after the declarations its marker gives.
// - Every package README block that is not a fragment is a program, and runs as written: exit code
//   0, nothing on stderr but tfjs' Node banner, something on stdout, and no tensor left behind (the
//   snippets dispose what they make). The root README's programs run in fresh Node and Vite apps in
//   tooling/consumers.
// The only change made to a block: the model folders it names ('./all-MiniLM-L6-v2', a
// sentence-transformers folder; './bert-base-uncased' and './attnkit-tiny-bert', plain Hugging Face
// folders; './Qwen3-0.6B', a causal LM folder; './SmolLM2-135M-Instruct', a tokenizer with a chat
// template; './Qwen3-Embedding-0.6B', a decoder sentence-transformers folder) are pointed at small
// folders of the same kind (a reference fixture made by sentence-transformers, the embedded model, the
// tiny random Qwen3 of the decoder fixtures, the SmolLM2 chat-template fixture, the tiny Qwen3
// embedding fixture).
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readmeSnippets, type Snippet } from './readme-snippets.js';
import { PACKAGE_READMES, readRepoFile, ROOT } from './workspace-readmes.js';

const run = promisify(execFile);
const HERE = join(import.meta.dirname, '..');
const OUT = join(HERE, '.readme'); // inside this package, so imports resolve to the workspace packages
const TSX = join(HERE, 'node_modules', '.bin', 'tsx');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const FOLDERS: Record<string, string> = {
  './all-MiniLM-L6-v2': join(ROOT, 'tooling', 'reference', 'fixtures', 'sentence', 'bert-mean-normalize'),
  './bert-base-uncased': join(ROOT, 'packages', 'models', 'assets', 'attnkit-tiny-bert'),
  './attnkit-tiny-bert': join(ROOT, 'packages', 'models', 'assets', 'attnkit-tiny-bert'),
  './Qwen3-0.6B': join(ROOT, 'tooling', 'reference', 'fixtures', 'decoders', 'qwen3'),
  './SmolLM2-135M-Instruct': join(ROOT, 'tooling', 'reference', 'fixtures', 'chat-templates', 'smollm2'),
  './Qwen3-Embedding-0.6B': join(ROOT, 'tooling', 'reference', 'fixtures', 'sentence-decoders', 'qwen3-lasttoken'),
};

/**
 * How many programs and fragments each README holds. A README renamed, a block lost or a fence
 * mistyped fails here instead of checking nothing; a new block is counted here on purpose.
 */
const COUNTS: Record<string, { programs: number; fragments: number }> = {
  'README.md': { programs: 3, fragments: 0 },
  'packages/attention/README.md': { programs: 1, fragments: 0 },
  'packages/backends/README.md': { programs: 1, fragments: 2 },
  'packages/cli/README.md': { programs: 1, fragments: 0 },
  'packages/errors/README.md': { programs: 1, fragments: 0 },
  'packages/hub/README.md': { programs: 1, fragments: 1 },
  'packages/kernels/README.md': { programs: 3, fragments: 1 },
  'packages/masks/README.md': { programs: 1, fragments: 0 },
  'packages/models/README.md': { programs: 2, fragments: 0 },
  'packages/nn/README.md': { programs: 1, fragments: 0 },
  'packages/scorers/README.md': { programs: 1, fragments: 0 },
  'packages/sentence/README.md': { programs: 2, fragments: 1 },
  'packages/tokenizers/README.md': { programs: 2, fragments: 0 },
  'packages/train/README.md': { programs: 2, fragments: 2 },
};

/** What tfjs prints on stderr when the cpu backend first runs in Node (unless its PROD flag is set): tfjs', not the program's. */
const TFJS_BANNER = /^\n={28}\nHi, looks like you are running TensorFlow\.js in Node\.js\.[^\n]*\n={28}\n/;

interface Checked extends Snippet {
  /** Its file under .readme/, from tooling/examples. */
  readonly file: string;
  /** Lines put before the code in that file (a fragment's declarations). */
  readonly before: number;
}

const snippets: Checked[] = ['README.md', ...PACKAGE_READMES].flatMap((readme) => {
  const project = readme === 'README.md' ? 'root' : 'packages';
  return readmeSnippets(readme, readRepoFile(readme)).map((snippet, i) => {
    const code = Object.entries(FOLDERS).reduce((text, [name, folder]) => text.replaceAll(`'${name}'`, JSON.stringify(folder)), snippet.code);
    const before = snippet.declarations === '' ? 0 : snippet.declarations.split('\n').length;
    return { ...snippet, code, before, file: join('.readme', project, `${readme.replace('/README.md', '').replace(/[/.]/g, '-')}-${i + 1}.ts`) };
  });
});
const programs = snippets.filter((s) => s.readme !== 'README.md' && !s.fragment);
const name = (s: Snippet) => `${s.readme}:${s.line}`;

/** tsc's `file(line,col): error …` lines pointed back at the README line they come from. */
function inReadme(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '').map((line) => {
    const at = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
    const snippet = at === null ? undefined : snippets.find((s) => join(HERE, s.file) === join(HERE, at[1]!) || s.file === at[1]);
    return snippet === undefined ? line : `${snippet.readme}:${snippet.line + Number(at![2]) - 1 - snippet.before}:${at![3]} ${at![4]}`;
  });
}

describe('the ts and js blocks of every README', () => {
  beforeAll(() => {
    rmSync(OUT, { recursive: true, force: true });
    for (const project of ['root', 'packages', 'run']) mkdirSync(join(OUT, project), { recursive: true });
    for (const s of snippets) writeFileSync(join(HERE, s.file), s.declarations === '' ? s.code : `${s.declarations}\n${s.code}`);
    // the packages' own settings (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, ...)
    writeFileSync(join(OUT, 'packages', 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['*.ts'] }));
    // a user's project: `strict` and the module settings of a Node or Vite app, nothing stricter
    const user = { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'], skipLibCheck: true, noEmit: true };
    writeFileSync(join(OUT, 'root', 'tsconfig.json'), JSON.stringify({ compilerOptions: user, include: ['*.ts'] }));
  });

  it('finds every README and the blocks each holds', () => {
    const found: Record<string, { programs: number; fragments: number }> = {};
    for (const s of snippets) {
      found[s.readme] ??= { programs: 0, fragments: 0 };
      found[s.readme]![s.fragment ? 'fragments' : 'programs']++;
    }
    expect(found).toEqual(COUNTS);
    expect(programs.length).toBe(19); // run here; the root README's 3 run in tooling/consumers
  });

  it('typechecks as written (one tsc run: package READMEs as strictly as the packages, the root README as a strict user project)', async () => {
    const output = await run(TSC, ['-b', join(OUT, 'packages'), join(OUT, 'root'), '--pretty', 'false'], { cwd: HERE }).then(({ stdout }) => stdout, (e: { stdout: string }) => e.stdout);
    expect(inReadme(output)).toEqual([]);
  }, 120_000);

  it.each(programs.map((s) => [name(s), s] as const))('%s runs: exit code 0, something on stdout, nothing on stderr, no tensor left', async (_, snippet) => {
    const file = join(OUT, 'run', relative(join('.readme', 'packages'), snippet.file));
    const cwd = join(OUT, 'run', `${relative(join('.readme', 'packages'), snippet.file)}.cwd`); // where the program writes ('./run', './my-encoder')
    mkdirSync(cwd);
    writeFileSync(file, `${snippet.code}\n// added by the test: the tensors the program left\nimport { engine as engine__ } from '@tensorflow/tfjs-core';\nconsole.log(\`tensors left: \${engine__().state.numTensors}\`);\n`);
    const result = await run(TSX, ['--conditions=@attnkit/source', file], { cwd }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr.split('\n').filter((l) => l.length < 400).slice(-8).join('\n') }), // wasm prints its whole source with a stack
    );
    expect(result.stderr.replace(TFJS_BANNER, '')).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length, 'prints what it shows').toBeGreaterThan(1);
    expect(lines.at(-1)).toBe('tensors left: 0');
  }, 120_000);
});
