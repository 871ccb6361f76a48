import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { leaksOf } from '@attnkit/test-utils';
import sentenceFixtures from '@attnkit/reference/fixtures/sentence.json' with { type: 'json' };
import { embeddedModelFolder } from './embedded-model.js';
import { parseEncodeArgs, runEncode } from './encode-command.js';
import { formatSimilarity, parseSimilarityArgs, runSimilarity, type SimilarityResult } from './similarity-command.js';
import { shortestFloat32 } from './shortest-float32.js';
import { expectUsageError } from './testing/expect-usage-error.js';

const run = promisify(execFile);
const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
const cli = (...args: string[]) => run(tsx, ['--conditions=@attnkit/source', join(import.meta.dirname, 'cli.ts'), ...args]);
const TEXTS = ['The cat sat on the mat.', 'A cat was sitting on a mat.', 'Stock markets fell sharply today.'];
const fixtureFolder = (name: string) => {
  const fixture = (sentenceFixtures as unknown as Record<string, { folder: string }>)[name]!;
  return decodeURIComponent(new URL(`../../../tooling/reference/fixtures/${fixture.folder}/`, import.meta.url).pathname);
};

/** Cosine similarity of two rows, in float64. */
function cosine(a: readonly number[], b: readonly number[]): number {
  const dot = (x: readonly number[], y: readonly number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
  return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
}

describe('attnkit similarity', () => {
  it('defaults to the embedded model and wasm', () => {
    expect(parseSimilarityArgs(['--text', 'a', '--text', 'b'])).toEqual({ model: embeddedModelFolder(), backend: 'wasm', texts: ['a', 'b'], json: false });
  });

  it.each([
    [['--text', 'a'], "attnkit similarity: '--text' must be two or more texts (--text \"...\" --text \"...\"); received one."],
    [[], "attnkit similarity: '--text' must be two or more texts (--text \"...\" --text \"...\"); received none."],
    [['--text', 'a', '--text', ' '], "attnkit similarity: '--text' must be non-empty text; received \"\"."],
    [['--text', 'a', '--text', 'b', '--backend', 'webgl'], "attnkit similarity: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received webgl."],
    [['--text', 'a', '--text', 'b', '--normalize'], "attnkit similarity: 'arguments' must be the options of attnkit similarity; received Unknown option '--normalize'."],
  ])('rejects %j with the usage and a pointer at --help', (argv, message) => {
    expectUsageError(() => parseSimilarityArgs(argv), message, 'Usage: attnkit similarity');
    expectUsageError(() => parseSimilarityArgs(argv), message, '(attnkit similarity --help');
  });

  it.each([
    ['the embedded model', embeddedModelFolder()],
    ['a sentence-transformers folder with a default prompt (bert-prompts)', fixtureFolder('bert-prompts')],
    ['a folder with Dense (bert-dense)', fixtureFolder('bert-dense')],
  ])('on %s: symmetric, diagonal 1, equal to the cosine of attnkit encode\'s sentence_embedding (1e-5)', async (_, model) => {
    const { result } = await runSimilarity(parseSimilarityArgs(['--model', model, '--backend', 'cpu', ...TEXTS.flatMap((t) => ['--text', t])]));
    const encoded = await runEncode(parseEncodeArgs(['--model', model, '--backend', 'cpu', ...TEXTS.flatMap((t) => ['--text', t])]));
    const embeddings = encoded.sentence_embedding;
    expect(result.texts).toEqual(TEXTS);
    expect(result.similarity.map((row) => row.length)).toEqual([3, 3, 3]);
    result.similarity.forEach((row, i) =>
      row.forEach((value, j) => {
        expect(Math.abs(value - result.similarity[j]![i]!)).toBeLessThanOrEqual(1e-5);
        expect(Math.abs(value - cosine(embeddings[i]!, embeddings[j]!))).toBeLessThanOrEqual(1e-5);
      }),
    );
    result.similarity.forEach((row, i) => expect(Math.abs(row[i]! - 1)).toBeLessThanOrEqual(1e-5));
  }, 60_000);

  it('leaves no tensors behind', async () => {
    const request = parseSimilarityArgs(['--backend', 'cpu', '--text', 'a', '--text', 'b']);
    await runSimilarity(request); // the backend is up before counting
    expect(await leaksOf(() => runSimilarity(request))).toEqual({ tensors: 0, bytes: 0 });
  });

  it('prints the numbered texts and the table', () => {
    const result: SimilarityResult = { texts: ['a cat', 'a dog'], similarity: [[1, 0.25], [0.25, 1]] };
    expect(formatSimilarity(result, '/models/real').split('\n')).toEqual([
      '   1. a cat',
      '   2. a dog',
      '',
      'cosine similarity of the sentence embeddings (pooled as the model folder says):',
      '           1      2',
      '   1   1.000  0.250',
      '   2   0.250  1.000',
    ]);
    expect(formatSimilarity(result, embeddedModelFolder())).toContain('the embedded model is tiny (2 layers, 64 wide) and trained only on WordNet definitions');
  });

  it('runs as a command: --json prints exactly one JSON document { texts, similarity } on stdout, timings on stderr', async () => {
    const { stdout, stderr } = await cli('similarity', '--backend', 'cpu', '--text', 'hello world', '--text', 'goodbye world', '--json');
    const printed = JSON.parse(stdout) as SimilarityResult;
    expect(Object.keys(printed)).toEqual(['texts', 'similarity']);
    expect(printed.texts).toEqual(['hello world', 'goodbye world']);
    expect(printed.similarity[0]![1]).toBeCloseTo(printed.similarity[1]![0]!, 5);
    // float32 values as the shortest decimals that read back the same float32 (0.8, 1.0000001), not 17 digits
    expect(printed.similarity.flat().map((v) => v === shortestFloat32(v))).toEqual([true, true, true, true]);
    expect(stdout).not.toMatch(/\d\.\d{10}/);
    expect(stderr).toMatch(/^attnkit similarity: 2 texts on cpu, load \d+ ms, encode \d+ ms\n$/);
  }, 60_000);
});
