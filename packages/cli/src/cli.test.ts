import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { EncodeResult } from './encode-command.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
/** The published bin (`attnkit` in package.json: the built dist/cli.js), run with node from a fresh temp directory. */
const bin = join(import.meta.dirname, '..', 'dist', 'cli.js');
const cli = (args: string[], cwd = mkdtempSync(join(tmpdir(), 'attnkit-cli-'))) => run(process.execPath, [bin, ...args], { cwd });
const failureOf = (args: string[]) => cli(args).then(() => undefined, (e: { code: number; stdout: string; stderr: string }) => e);

describe('the attnkit command line', () => {
  it.each([
    [[], 'attnkit [--backend cpu|wasm]', ['--backend', '--model', '--text', '--compare', '--json', 'encode', 'similarity', 'report', 'Exit codes:']],
    [['encode'], 'attnkit encode', ['--text', '--input', '--model', '--backend', '--prompt-name', '--normalize', '--output', 'Exit codes:']],
    [['similarity'], 'attnkit similarity', ['--text', '--model', '--backend', '--json', 'Exit codes:']],
    [['report'], 'attnkit report', ['--help', 'Exit codes:']],
    [['embed'], 'attnkit embed INPUT', ['--output', '--model', '--backend', '--input-format', '--text-field', '--id-field', '--batch-size', '--workers', '--threads', '--shard', 'JOB_COMPLETION_INDEX', '--prompt-name', '--normalize', '--overwrite', '--json', 'Exit codes:', '130']],
    [['join'], 'attnkit join', ['--json', 'Exit codes:']],
    [['search'], 'attnkit search --index vectors.npy', ['--index', '--query', '--model', '--rerank', '--top-k', '--candidates', '--score-function', '--prompt-name', '--backend', '--json', 'Exit codes:']],
    [['train'], 'attnkit train', ['--model', '--pairs', '--output', '--backend', '--epochs', '--max-steps', '--batch-size', '--learning-rate', '--warmup-ratio', '--seed', '--checkpoint-every', '--overwrite', '--json', 'Exit codes:', '130']],
    [['bench'], 'attnkit bench', ['--model', '--backend', '--batch', '--tokens', '--runs', '--json', 'Exit codes:']],
    [['generate'], 'attnkit generate --model DIR|ID --prompt', ['--model', '--prompt', '--chat', '--system', '--max-new-tokens', '--temperature', '--top-k', '--top-p', '--seed', '--stop', '--backend', '--json', 'Exit codes:']],
  ])('%j --help and -h print the usage, every option, defaults and examples on stdout, exit 0', async (command, usage, mentions) => {
    for (const { stdout, stderr } of await Promise.all(['--help', '-h'].map((flag) => cli([...command, flag])))) {
      expect(stdout.startsWith(`Usage: ${usage}`)).toBe(true);
      for (const m of mentions) expect(stdout).toContain(m);
      if (!['report', 'join'].includes(command[0] ?? '')) expect(stdout).toContain('(default: wasm)');
      expect(stdout.split('\nExamples:\n')[1]!.split('\n').filter((l) => l.startsWith(`  attnkit${command.length > 0 ? ` ${command[0]}` : ''}`)).length).toBeGreaterThanOrEqual(2);
      expect(stderr).toBe('');
    }
  }, 60_000);

  it('help wins over other arguments, but not after --; a leading -- (pnpm start -- ... passes it on) is dropped', async () => {
    expect((await cli(['encode', '--text', 'x', '--help'])).stdout).toMatch(/^Usage: attnkit encode/);
    expect((await cli(['--', 'similarity', '-h'])).stdout).toMatch(/^Usage: attnkit similarity/);
    expect((await failureOf(['encode', '--text=x', '--', '--help']))?.code).toBe(2);
  }, 60_000);

  it.each([
    [['--txt', 'a'], /^attnkit: 'arguments' must be the options of the demo; received Unknown option '--txt'.*attnkit --help/],
    [['encode', '--txt', 'a'], /^attnkit encode: 'arguments' must be the options of attnkit encode; received Unknown option '--txt'.*attnkit encode --help/],
    [['similarity', '--text', 'a', '--text', 'b', '--normalize'], /^attnkit similarity: 'arguments' must be the options of attnkit similarity; received Unknown option '--normalize'.*attnkit similarity --help/],
    [['report', '--json'], /^attnkit report: 'arguments' must be none; received Unknown option '--json'.*attnkit report --help/],
    [['embedd', '--text', 'x'], /^attnkit: 'command' must be none \(the demo\), encode, similarity, embed, join, search, generate, bench, train, quantize, download, cache or report; received 'embedd'\. Did you mean attnkit embed\? Run attnkit --help/],
  ])('%j is a typed usage error: exit 2, a message that points at --help, nothing on stdout', async (args, message) => {
    const failure = await failureOf(args);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(message);
    expect(failure?.stdout).toBe('');
  }, 60_000);

  it('encode without --output prints exactly one JSON document on stdout', async () => {
    const { stdout } = await cli(['encode', '--backend', 'cpu', '--text', 'Hello world']);
    expect((JSON.parse(stdout) as EncodeResult).tokens).toEqual([['[CLS]', 'hello', 'world', '[SEP]']]);
  }, 60_000);

  it('generate streams the new text on stdout, then a newline; the summary goes to stderr; a bad number is exit 2', async () => {
    const gpt2 = join(root, 'tooling', 'reference', 'fixtures', 'decoders', 'gpt2');
    const [{ stdout, stderr }, failure] = await Promise.all([
      cli(['generate', '--model', gpt2, '--prompt', 'The cat sat', '--temperature', '0', '--max-new-tokens', '4']),
      failureOf(['generate', '--model', gpt2, '--prompt', 'The cat sat', '--max-new-tokens', 'many']),
    ]);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stderr).toMatch(/^attnkit generate: 7 prompt \+ 4 new tokens \(length\) on wasm, load \d+ ms, prefill \d+ ms, decode \d+ ms, [\d.]+ tokens\/s\n$/);
    expect([failure?.code, failure?.stdout]).toEqual([2, '']);
    expect(failure?.stderr).toMatch(/^attnkit generate: '--max-new-tokens' must be a whole number from 1 to 1000000; received "many"\. Usage: attnkit generate/);
  }, 60_000);

  it('the bin is what package.json names, starts with a node shebang, and relative --output, --input and --model resolve against the directory it runs in', async () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(join(import.meta.dirname, '..', manifest.bin.attnkit!)).toBe(bin);
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const caller = mkdtempSync(join(tmpdir(), 'attnkit-caller-'));
    await cli(['encode', '--backend', 'cpu', '--text', 'hi', '--output', 'out.json'], caller);
    expect((JSON.parse(readFileSync(join(caller, 'out.json'), 'utf8')) as EncodeResult).tokens).toEqual([['[CLS]', 'hi', '[SEP]']]);
    const missing = await cli(['encode', '--backend', 'cpu', '--input', 'ids.json'], caller).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(missing?.stderr).toContain(`'--input' must be a readable JSON file with input_ids (and attention_mask, token_type_ids) as nested arrays; received ${join(caller, 'ids.json')} (ENOENT`);
    const noModel = await cli(['similarity', '--backend', 'cpu', '--model', 'my-model', '--text', 'a', '--text', 'b'], caller).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect([noModel?.code, noModel?.stderr]).toEqual([2, expect.stringContaining(`attnkit similarity: '--model' must be a model folder, a Hugging Face id ('org/name') or an http(s) URL; received ${join(caller, 'my-model')}, which does not exist.`)]);
  }, 60_000);

  it('npm run demo from another directory (npm run --prefix <repo>) runs the command there: --output lands in that directory', async () => {
    const caller = mkdtempSync(join(tmpdir(), 'attnkit-npm-'));
    await run('npm', ['run', '-s', '--prefix', root, 'demo', '--', 'encode', '--backend', 'cpu', '--text', 'hi', '--output', 'out.json'], { cwd: caller });
    expect((JSON.parse(readFileSync(join(caller, 'out.json'), 'utf8')) as EncodeResult).tokens).toEqual([['[CLS]', 'hi', '[SEP]']]);
    expect(existsSync(join(root, 'out.json'))).toBe(false);
    // dependencies are installed once: a second run finds them (the manifests' hash is unchanged) and does not reinstall
    const again = await run('npm', ['run', '-s', '--prefix', root, 'demo', '--', '--help'], { cwd: caller });
    expect(again.stdout).toMatch(/^Usage: attnkit/);
    expect(again.stderr).not.toMatch(/dependencies ready/);
  }, 120_000);
});
