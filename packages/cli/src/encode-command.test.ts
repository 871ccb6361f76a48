import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { maxDifference } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureValues, specOf, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/embedded-bert.json' with { type: 'json' };
import families from '@attnkit/reference/fixtures/families.json' with { type: 'json' };
import sentenceFixtures from '@attnkit/reference/fixtures/sentence.json' with { type: 'json' };
import { embeddedModelFolder } from './embedded-model.js';
import { parseEncodeArgs, runEncode } from './encode-command.js';
import { shortestFloat32 } from './shortest-float32.js';
import { expectUsageError } from './testing/expect-usage-error.js';

const run = promisify(execFile);
const pair = (fixtures as FixtureFile).cases['pair with padding']!;
const dir = mkdtempSync(join(tmpdir(), 'attnkit-cli-'));
const idsFile = join(dir, 'ids.json');
const nested = (name: string) => {
  const s = specOf(pair.inputs, name);
  const v = fixtureValues(s);
  return Array.from({ length: s.shape[0]! }, (_, b) => v.slice(b * s.shape[1]!, (b + 1) * s.shape[1]!));
};
writeFileSync(idsFile, JSON.stringify({ input_ids: nested('input_ids'), attention_mask: nested('attention_mask'), token_type_ids: nested('token_type_ids') }));

// a folder with the bert family fixture's config.json and model.safetensors only (no tokenizer files), and ids for it:
// the family fixture's (PyTorch BertModel outputs) and the plain-bert sentence fixture's (SentenceTransformer.encode, mean pooling)
const referenceFixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);
const weightsOnly = join(dir, 'weights-only');
mkdirSync(weightsOnly);
for (const file of ['config.json', 'model.safetensors']) copyFileSync(join(referenceFixtures, 'families', 'bert', file), join(weightsOnly, file));
const bert = (families as unknown as Record<string, { inputs: Record<string, number[][]>; last_hidden_state: number[][][]; pooler_output: number[][] }>).bert!;
const familyIds = join(dir, 'family-ids.json');
writeFileSync(familyIds, JSON.stringify(bert.inputs));
const plainBert = (sentenceFixtures as unknown as Record<string, { input_ids: number[][]; cases: Array<{ options: { normalize_embeddings?: boolean }; embeddings: number[][] }> }>)['plain-bert']!;
const longest = Math.max(...plainBert.input_ids.map((row) => row.length));
const plainIds = join(dir, 'plain-ids.json');
writeFileSync(plainIds, JSON.stringify({ input_ids: plainBert.input_ids.map((row) => [...row, ...Array<number>(longest - row.length).fill(0)]), attention_mask: plainBert.input_ids.map((row) => row.map(() => 1).concat(Array<number>(longest - row.length).fill(0))) }));

describe('attnkit encode', () => {
  it('defaults to the embedded model and wasm', () => {
    expect(parseEncodeArgs(['--text', 'hi'])).toEqual({ model: embeddedModelFolder(), backend: 'wasm', texts: ['hi'], input: undefined, output: undefined, promptName: undefined, normalize: false });
  });

  it.each([
    [['--text', 'hi', '--backend', 'webgl'], "attnkit encode: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received webgl."],
    [['--backend', 'cpu'], "attnkit encode: '--text / --input' must be one or more --text, or one --input ids.json (not both); received neither."],
    [['--text', 'a', '--input', 'x.json'], "attnkit encode: '--text / --input' must be one or more --text, or one --input ids.json (not both); received both."],
    [['--text', '  '], "attnkit encode: '--text' must be non-empty text; received \"\"."],
    [['--input', 'x.json', '--prompt-name', 'query'], "attnkit encode: '--prompt-name' must be texts (--text): ids from --input are embedded as they are; received --input."],
    [['--txt', 'a'], "attnkit encode: 'arguments' must be the options of attnkit encode; received Unknown option '--txt'."],
  ])('rejects %j with the usage', (argv, message) => {
    expectUsageError(() => parseEncodeArgs(argv), message, 'Usage: attnkit encode');
  });

  it.each([
    [{ input_ids: [] }, 'input_ids is []'],
    [{ input_ids: [[]] }, 'input_ids[0] = []'],
    [{ input_ids: [[101, 102], []] }, 'input_ids[1] = []'],
    [{ input_ids: [101, 102] }, 'input_ids[0] = 101'],
  ])('refuses ids.json %j before loading the model: exit 2, naming the file', async (ids, what) => {
    const path = join(dir, 'empty-ids.json');
    writeFileSync(path, JSON.stringify(ids));
    const error = await runEncode(parseEncodeArgs(['--backend', 'cpu', '--input', path])).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error?.message).toContain(`attnkit encode: '--input' must be input_ids with at least one sequence of at least one token id ([[101, 7592, 102]]); received ${path} with ${what}. Usage: attnkit encode`);
  });

  it.each(['cpu', 'wasm'] as const)('reproduces the PyTorch numbers from ids.json on %s (last_hidden_state ≤ 1e-4, pooler ≤ 1e-5)', async (backend) => {
    const output = join(dir, `out-${backend}.json`);
    const result = await runEncode(parseEncodeArgs(['--input', idsFile, '--backend', backend, '--output', output]));
    const written = JSON.parse(readFileSync(output, 'utf8')) as typeof result;
    expect(maxDifference(written.last_hidden_state.flat(2), fixtureValues(specOf(pair.outputs, 'last_hidden_state'))).maxAbsDiff).toBeLessThanOrEqual(1e-4);
    expect(maxDifference(written.pooler_output!.flat(), fixtureValues(specOf(pair.outputs, 'pooler_output'))).maxAbsDiff).toBeLessThanOrEqual(1e-5);
    expect([written.sentence_embedding?.length, written.sentence_embedding?.[0]?.length]).toEqual([2, 64]);
    const values = [...written.last_hidden_state.flat(2), ...written.pooler_output!.flat(), ...written.sentence_embedding.flat()];
    expect(values.filter((v) => v !== shortestFloat32(v))).toEqual([]); // float32 values in their shortest decimals
    console.log(`${backend}: ${result.backend}, load ${result.timings_ms.load} ms, forward ${result.timings_ms.forward} ms`);
  });

  it('encodes ids.json with a folder of only config.json and model.safetensors (no tokenizer): hidden states as PyTorch, sentence_embedding as SentenceTransformer, with --output and --normalize', async () => {
    const output = join(dir, 'weights-only-out.json');
    await runEncode(parseEncodeArgs(['--model', weightsOnly, '--backend', 'cpu', '--input', familyIds, '--output', output]));
    const written = JSON.parse(readFileSync(output, 'utf8')) as Awaited<ReturnType<typeof runEncode>>;
    expect(Object.keys(written)).toEqual(['backend', 'last_hidden_state', 'pooler_output', 'sentence_embedding', 'timings_ms']); // no tokens: ids were given
    expect(maxDifference(written.last_hidden_state.flat(2), bert.last_hidden_state.flat(2)).maxAbsDiff).toBeLessThanOrEqual(1e-4);
    expect(maxDifference(written.pooler_output!.flat(), bert.pooler_output.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-5);
    const [plain, normalized] = [plainBert.cases[0]!, plainBert.cases[1]!];
    expect([plain.options.normalize_embeddings, normalized.options.normalize_embeddings]).toEqual([undefined, true]);
    const mean = await runEncode(parseEncodeArgs(['--model', weightsOnly, '--backend', 'cpu', '--input', plainIds]));
    expect(maxDifference(mean.sentence_embedding.flat(), plain.embeddings.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-5);
    const unit = await runEncode(parseEncodeArgs(['--model', weightsOnly, '--backend', 'cpu', '--input', plainIds, '--normalize']));
    expect(maxDifference(unit.sentence_embedding.flat(), normalized.embeddings.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-5);
  }, 60_000);

  it.each([
    ['bert-prompts', {}, 0], // the folder's default prompt ("query: "), mean pooling without the prompt, dot similarity
    ['bert-prompts', { promptName: 'passage' }, 9],
    ['mpnet-mean-normalize', {}, 0],
    ['bert-dense', { normalize: true }, 1],
  ] as const)('embeds texts as the %s folder says, equal to SentenceTransformer.encode (%j)', async (name, options, caseIndex) => {
    const fixture = (sentenceFixtures as unknown as Record<string, { folder: string; texts: string[]; cases: Array<{ embeddings: number[][] }> }>)[name]!;
    const folder = decodeURIComponent(new URL(`../../../tooling/reference/fixtures/${fixture.folder}/`, import.meta.url).pathname);
    const texts = fixture.texts.filter((t) => t.trim() !== ''); // the command refuses empty texts
    const argv = ['--model', folder, '--backend', 'cpu', ...texts.flatMap((t) => ['--text', t]), ...('promptName' in options ? ['--prompt-name', options.promptName] : []), ...('normalize' in options ? ['--normalize'] : [])];
    const result = await runEncode(parseEncodeArgs(argv));
    const expected = fixture.texts.map((t, i) => [t, fixture.cases[caseIndex]!.embeddings[i]!] as const).filter(([t]) => t.trim() !== '').map(([, e]) => e);
    expect(maxDifference(result.sentence_embedding.flat(), expected.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-5);
  }, 60_000);

  it('runs as a command: exit 0 with the file written, exit 2 with a typed message for a model folder that does not exist', async () => {
    const cli = ['--conditions=@attnkit/source', join(import.meta.dirname, 'cli.ts')];
    const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
    const output = join(dir, 'cli-out.json');
    await run(tsx, [...cli, 'encode', '--text', 'Hello world', '--output', output]);
    expect((JSON.parse(readFileSync(output, 'utf8')) as { tokens: string[][] }).tokens).toEqual([['[CLS]', 'hello', 'world', '[SEP]']]);
    const { stdout } = await run(tsx, [...cli, 'encode', '--model', weightsOnly, '--backend', 'cpu', '--input', familyIds]); // ids with no tokenizer, the JSON on stdout
    expect((JSON.parse(stdout) as { sentence_embedding: number[][] }).sentence_embedding.map((row) => row.length)).toEqual([32, 32, 32]);
    const failure = await run(tsx, [...cli, 'encode', '--model', join(dir, 'missing'), '--text', 'x']).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`attnkit encode: '--model' must be a model folder, a Hugging Face id ('org/name') or an http(s) URL; received ${join(dir, 'missing')}, which does not exist.`);
    const unknown = await run(tsx, [...cli, 'embedd', '--text', 'x']).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(unknown?.code).toBe(2); // a usage mistake, not a bug
    expect(unknown?.stderr).toMatch(/^attnkit: 'command' must be none \(the demo\), encode, similarity, embed, join, search, generate, bench, train, quantize, download, cache or report; received 'embedd'\. Did you mean attnkit embed\? Run attnkit --help/);
  }, 60_000);
});
