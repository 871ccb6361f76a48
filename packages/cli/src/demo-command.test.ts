import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SENTENCES, formatDemoReport, parseDemoArgs, runDemo, type DemoReport } from './demo-command.js';
import { shortestFloat32 } from './shortest-float32.js';
import { expectUsageError } from './testing/expect-usage-error.js';

const run = promisify(execFile);
const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
const cli = (...args: string[]) => run(tsx, ['--conditions=@attnkit/source', join(import.meta.dirname, 'cli.ts'), ...args]);

describe('the demo (no arguments)', () => {
  it('encodes the example sentences: tokens, a similarity matrix, capabilities, timings and cpu/wasm agreement', async () => {
    const report = await runDemo(parseDemoArgs([]));
    expect(report.tokens[0]).toEqual(['[CLS]', 'the', 'cat', 'sat', 'on', 'the', 'mat', '.', '[SEP]']);
    expect(report.similarity).toHaveLength(EXAMPLE_SENTENCES.length);
    report.similarity.forEach((row, i) => expect(row[i]).toBeCloseTo(1, 5));
    expect(report.capabilities.backend).toBe('wasm');
    expect(report.agreement).toEqual([{ backend: 'wasm', reference: 'cpu', maxAbsDiff: expect.any(Number) }]);
    expect(report.agreement[0]!.maxAbsDiff).toBeLessThan(1e-4);
    expect(report.timingsMs.firstForward).toBeGreaterThan(0);
    const text = formatDemoReport(report);
    expect(text).toContain('cosine similarity of the sentence embeddings (pooled as the model folder says):');
    expect(text).toMatch(/agreement wasm vs cpu: max abs diff of last_hidden_state \d\.\d\de-\d/);
    expect(text).toContain('the embedded model is tiny (2 layers, 64 wide) and trained only on WordNet definitions');
  }, 60_000);

  it('--backend cpu --compare wasm,cpu compares cpu against wasm', async () => {
    const report = await runDemo(parseDemoArgs(['--backend', 'cpu', '--compare', 'wasm,cpu', '--text', 'hello world']));
    expect([report.capabilities.backend, report.agreement.map((a) => `${a.backend}/${a.reference}`)]).toEqual(['cpu', ['cpu/wasm']]);
  }, 60_000);

  it('--json prints one machine-readable object with the documented fields', async () => {
    const { stdout } = await cli('--json', '--text', 'hello world', '--text', 'goodbye world');
    const report = JSON.parse(stdout) as DemoReport;
    expect(Object.keys(report).sort()).toEqual(['agreement', 'capabilities', 'embeddings', 'model', 'similarity', 'timingsMs', 'tokens']);
    expect(Object.keys(report.timingsMs).sort()).toEqual(['firstForward', 'load', 'warmForwardMedian']);
    expect([report.embeddings.length, report.embeddings[0]?.length]).toEqual([2, 64]);
    expect([...report.similarity.flat(), ...report.embeddings.flat()].every((v) => v === shortestFloat32(v))).toBe(true); // float32 values in their shortest decimals
  }, 60_000);

  it.each([
    [['--backend', 'webgl'], "attnkit: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received webgl."],
    [['--text', ''], "attnkit: '--text' must be non-empty text; received \"\"."],
    [['--compare', 'cpu,webgpu'], "attnkit: '--compare' must be a comma-separated list of cpu, wasm; received cpu,webgpu."],
  ])('rejects %j with the usage', (argv, message) => {
    expectUsageError(() => parseDemoArgs(argv), message, 'Usage: attnkit');
  });

  it('exits 2 with a clear message for a missing folder (named as resolved) or a folder that is no model', async () => {
    const missing = await cli('--model', '/nonexistent/model').then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(missing?.code).toBe(2);
    expect(missing?.stderr).toContain("attnkit: '--model' must be a model folder, a Hugging Face id ('org/name') or an http(s) URL; received /nonexistent/model, which does not exist.");
    const malformed = await cli('--model', join(import.meta.dirname, '..')).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(malformed?.code).toBe(2);
    expect(malformed?.stderr).toMatch(/attnkit: loadSentenceEncoder: config\.json is missing in .*packages\/cli; a Hugging Face model folder has config\.json and model\.safetensors, a sentence-transformers folder also modules\.json\./);
  }, 60_000);
});
