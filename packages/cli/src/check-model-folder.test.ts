import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { parseBenchArgs, runBench } from './bench-command.js';
import { checkModelFolder } from './check-model-folder.js';
import { parseDemoArgs, runDemo } from './demo-command.js';
import { parseEmbedArgs, runEmbed } from './embed/embed-command.js';
import { embeddedModelFolder } from './embedded-model.js';
import { ENCODE_COMMAND, parseEncodeArgs, runEncode } from './encode-command.js';
import { parseQuantizeArgs, runQuantize } from './quantize-command.js';
import { parseSimilarityArgs, runSimilarity } from './similarity-command.js';
import { parseTrainArgs, runTrain } from './train-command.js';

const dir = mkdtempSync(join(tmpdir(), 'attnkit-model-folder-'));
writeFileSync(join(dir, 'config.json'), '{}');
writeFileSync(join(dir, 'texts.txt'), 'a text\n');
const missing = join(dir, 'no-model');

describe('checkModelFolder', () => {
  it('passes an existing folder and a URL (which the loader reads) without touching them', () => {
    expect(() => checkModelFolder(ENCODE_COMMAND, '--model', embeddedModelFolder())).not.toThrow();
    expect(() => checkModelFolder(ENCODE_COMMAND, '--model', 'https://huggingface.co/x/resolve/main')).not.toThrow();
  });

  it.each([
    [join(dir, 'missing'), 'which does not exist'],
    [join(dir, 'config.json', 'below-a-file'), 'which does not exist'],
    [join(dir, 'config.json'), 'a file, not a folder'],
  ])('refuses %s: the path as resolved, %s, and where relative paths start', (path, problem) => {
    const error = thrown(() => checkModelFolder(ENCODE_COMMAND, '--model', path));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(`attnkit encode: '--model' must be a model folder, a Hugging Face id ('org/name') or an http(s) URL; received ${path}, ${problem}. A model folder holds config.json and model.safetensors (and, for texts, the tokenizer files); relative paths are taken from the directory you run the command in (${process.cwd()}).`);
  });

  const RUNS: ReadonlyArray<[string, () => Promise<unknown>]> = [
    ['attnkit', () => runDemo(parseDemoArgs(['--model', missing]))],
    ['attnkit encode', () => runEncode(parseEncodeArgs(['--model', missing, '--text', 'a']))],
    ['attnkit similarity', () => runSimilarity(parseSimilarityArgs(['--model', missing, '--text', 'a', '--text', 'b']))],
    ['attnkit embed', () => runEmbed(parseEmbedArgs([join(dir, 'texts.txt'), '--output', join(dir, 'out.npy'), '--model', missing]))],
    ['attnkit bench', () => runBench(parseBenchArgs(['--model', missing]))],
    ['attnkit train', () => runTrain(parseTrainArgs(['--model', missing, '--texts', join(dir, 'texts.txt'), '--output', join(dir, 'trained')]))],
    ['attnkit quantize', () => runQuantize(parseQuantizeArgs([missing, join(dir, 'int8')]))],
  ];

  it('every command that loads a model checks its folder first', async () => {
    expect(RUNS).toHaveLength(7);
    for (const [caller, run] of RUNS) {
      const error = await run().then(() => undefined, (e: unknown) => e as Error);
      expect(error, caller).toBeInstanceOf(InvalidArgumentError);
      expect(error?.message, caller).toMatch(new RegExp(`^${caller}: '(--model|model-folder)' must be a model folder, a Hugging Face id \\('org/name'\\) or an http\\(s\\) URL; received ${missing}, which does not exist\\.`));
    }
  });
});
