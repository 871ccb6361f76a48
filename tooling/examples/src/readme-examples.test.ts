// The first example of every package README, run as written: a user who copies it gets a program
// that runs. The only change made to it: the model folders it names ('./all-MiniLM-L6-v2', a
// sentence-transformers folder, and './bert-base-uncased', a plain Hugging Face folder) are pointed
// at small folders of the same kind made by sentence-transformers and transformers (reference fixtures).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const HERE = join(import.meta.dirname, '..');
const OUT = join(HERE, '.readme'); // inside this package, so imports resolve to the workspace packages
const TSX = join(HERE, 'node_modules', '.bin', 'tsx');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const FOLDERS: Record<string, string> = {
  './all-MiniLM-L6-v2': join(ROOT, 'tooling', 'reference', 'fixtures', 'sentence', 'bert-mean-normalize'),
  './bert-base-uncased': join(ROOT, 'packages', 'models', 'assets', 'attnkit-tiny-bert'),
};
/** Every package with a README: a new package's example is run without being listed here. */
const PACKAGES = readdirSync(join(ROOT, 'packages')).filter((pkg) => existsSync(join(ROOT, 'packages', pkg, 'README.md'))).sort();

/** The first ```ts block of a README. */
function firstExample(pkg: string): string {
  const readme = readFileSync(join(ROOT, 'packages', pkg, 'README.md'), 'utf8');
  const match = /```ts\n([\s\S]*?)```/.exec(readme);
  if (match === null) throw new Error(`packages/${pkg}/README.md has no \`\`\`ts example`);
  return Object.entries(FOLDERS).reduce((code, [name, folder]) => code.replaceAll(`'${name}'`, JSON.stringify(folder)), match[1]!);
}

describe('the first example of each package README', () => {
  it('finds every package', () => {
    expect(PACKAGES).toEqual(['attention', 'backends', 'cli', 'errors', 'hub', 'kernels', 'masks', 'models', 'nn', 'scorers', 'sentence', 'tokenizers', 'train']);
  });

  beforeAll(() => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const pkg of PACKAGES) writeFileSync(join(OUT, `${pkg}.ts`), firstExample(pkg));
    writeFileSync(join(OUT, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['*.ts'], compilerOptions: { noUnusedLocals: false } }));
  });

  it('typechecks as written (strict, as the packages themselves)', async () => {
    const result = await run(TSC, ['-p', join(OUT, 'tsconfig.json'), '--noEmit'], { cwd: HERE }).then(() => '', (e: { stdout: string }) => e.stdout);
    expect(result).toBe('');
  }, 120_000);

  it.each(PACKAGES)('%s: runs with exit code 0 and prints what it shows', async (pkg) => {
    const result = await run(TSX, ['--conditions=@attnkit/source', join(OUT, `${pkg}.ts`)], { cwd: HERE }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr.split('\n').filter((l) => l.length < 400).slice(-8).join('\n') }), // wasm prints its whole source with a stack
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).not.toBe('');
  }, 120_000);
});
