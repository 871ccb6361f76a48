import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { thrown } from '@attnkit/test-utils';
import { formatQuantizeSummary, parseQuantizeArgs, runQuantize } from './quantize-command.js';

const FIXTURE = decodeURIComponent(new URL('../../../tooling/reference/fixtures/sentence/bert-dense/', import.meta.url).pathname);

describe('parseQuantizeArgs', () => {
  it('takes two folders relative to where the command runs, then options', () => {
    expect(parseQuantizeArgs(['in', 'out', '--backend', 'cpu', '--overwrite'])).toEqual({ input: resolve('in'), output: resolve('out'), backend: 'cpu', overwrite: true, json: false });
    expect(parseQuantizeArgs(['in', 'out'])).toMatchObject({ backend: 'wasm', overwrite: false });
  });

  it.each([
    [[], "attnkit quantize: 'folders' must be two: the float model folder and the folder to write the int8 one to; received none."],
    [['in'], "attnkit quantize: 'folders' must be two: the float model folder and the folder to write the int8 one to; received \"in\"."],
    [['in', 'out', '--backend', 'webgl'], "attnkit quantize: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received webgl."],
    [['same', 'same'], `attnkit quantize: 'folders' must be two different folders (the input is read, the output written); received ${resolve('same')} twice.`],
  ])('refuses %j with a usage error', (argv, message) => {
    const error = thrown(() => parseQuantizeArgs(argv));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(`${message} Usage: attnkit quantize <model-folder> <output-folder> [--backend cpu|wasm] [--overwrite] [--json] (attnkit quantize --help lists every option)`);
  });

  it('refuses an unknown option', () => {
    expect(thrown(() => parseQuantizeArgs(['in', 'out', '--bits', '4'])).message).toMatch(/^attnkit quantize: 'arguments' must be the options of attnkit quantize; received Unknown option '--bits'/);
  });
});

describe('runQuantize', () => {
  it('writes the int8 folder of a sentence-transformers folder and measures it against the input', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'attnkit-quantize-')), 'int8');
    const summary = await runQuantize({ input: FIXTURE, output, backend: 'cpu', overwrite: false, json: false });
    expect(summary.files).toBe(readdirSync(output, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length);
    expect(summary.outputBytes).toBeLessThan(summary.inputBytes);
    expect(formatQuantizeSummary(summary)).toMatch(new RegExp(`^attnkit quantize: .*bert-dense/ \\(0\\.\\d{3} MB\\) -> .*int8 \\(0\\.\\d{3} MB, \\d+%\\), ${summary.files} files$`));
    const model = await loadSentenceEncoder(output);
    expect(model.encoder.namedModules().some(([, m]) => m.constructor.name === 'Int8Linear')).toBe(true);
    model.dispose();
  });
});
