import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadBertForMaskedLM } from '@attnkit/models';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { thrown } from '@attnkit/test-utils';
import { embeddedModelFolder } from './embedded-model.js';
import { parseTrainArgs, readPairs, readTexts, type TrainSummary } from './train-command.js';
import { shortestFloat32 } from './shortest-float32.js';

const BIN = join(import.meta.dirname, '..', 'dist', 'cli.js');
interface Run { code: number | null; stdout: string; stderr: string }
function attnkit(args: string[], cwd: string, onStart?: (child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    onStart?.(child);
  });
}
const PAIRS = [
  ['a cat sits on the mat', 'a kitten is sitting on a rug'],
  ['stock markets fell sharply', 'share prices dropped a lot'],
  ['it is raining today', 'the weather is wet this morning'],
  ['he plays the guitar', 'a man is playing an instrument'],
  ['the train was late', 'the railway service was delayed'],
  ['she reads a book', 'a woman is reading a novel'],
  ['children play in the park', 'kids are playing outside'],
  ['the soup is hot', 'the broth is very warm'],
];
const folder = mkdtempSync(join(tmpdir(), 'attnkit-train-'));
const file = (name: string, text: string) => {
  writeFileSync(join(folder, name), text);
  return join(folder, name);
};

describe('readPairs', () => {
  it('JSONL and TSV, ranking pairs (with an optional negative) or labelled pairs; blank lines skipped', () => {
    expect(readPairs(file('p.jsonl', '{"anchor": "a", "positive": "b"}\n\n{"anchor": "c", "positive": "d", "negative": "e"}\n'))).toEqual({ loss: 'multiple-negatives-ranking', pairs: [{ anchor: 'a', positive: 'b' }, { anchor: 'c', positive: 'd', negative: 'e' }] });
    expect(readPairs(file('s.jsonl', '{"a": "x", "b": "y", "label": 0.5}\n'))).toEqual({ loss: 'cosine-similarity', pairs: [{ a: 'x', b: 'y', label: 0.5 }] });
    expect(readPairs(file('p.tsv', 'a\tb\r\nc\td\te\n'))).toEqual({ loss: 'multiple-negatives-ranking', pairs: [{ anchor: 'a', positive: 'b' }, { anchor: 'c', positive: 'd', negative: 'e' }] });
    expect(readPairs(file('s.tsv', 'x\ty\t0.8\nz\tw\t-1\n'))).toEqual({ loss: 'cosine-similarity', pairs: [{ a: 'x', b: 'y', label: 0.8 }, { a: 'z', b: 'w', label: -1 }] });
  });

  it.each([
    ['bad.jsonl', '{"anchor": "a"}\n', /'--pairs' must be "anchor" and "positive" texts .*bad\.jsonl:1/],
    ['broken.jsonl', '{"anchor": "a", "positive": "b"}\n{oops\n', /'--pairs' must be one JSON object per line; received .* at .*broken\.jsonl:2/],
    ['mixed.jsonl', '{"anchor": "a", "positive": "b"}\n{"a": "x", "b": "y", "label": 1}\n', /must be an \(anchor, positive\[, negative\]\) pair like the lines before; received a labelled pair at .*mixed\.jsonl:2/],
    ['one.tsv', 'only one column\n', /must be two or three tab-separated columns; received 1 column\(s\) at .*one\.tsv:1/],
    ['empty.tsv', '\n\n', /must be at least one pair; received .*empty\.tsv has none/],
    ['nolabel.jsonl', '{"a": "x", "b": "y", "label": "high"}\n', /must be "a" and "b" texts and a finite number "label"/],
  ])('%s is an InvalidArgumentError naming the file and line', (name, text, message) => {
    const error = thrown(() => readPairs(file(name, text)));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('parseTrainArgs', () => {
  it('defaults: wasm, batch 16, one epoch, lr 2e-5, warm-up 0.1, seed 42, a checkpoint every 100 steps', () => {
    // the learning rate and warm-up are left to the objective (2e-5 and 0.1 for pairs, 5e-5 and 0 for texts)
    expect(parseTrainArgs(['--model', '/m', '--pairs', '/p.tsv', '--output', '/o'])).toEqual({ model: '/m', pairs: '/p.tsv', texts: undefined, output: '/o', backend: 'wasm', batchSize: 16, epochs: undefined, maxSteps: undefined, learningRate: undefined, warmupRatio: undefined, seed: 42, checkpointEvery: 100, overwrite: false, json: false });
    expect(parseTrainArgs(['--model', '/m', '--texts', '/t.txt', '--output', '/o', '--batch-size', '1'])).toMatchObject({ pairs: undefined, texts: '/t.txt', batchSize: 1 });
  });

  it.each([
    [['--pairs', 'p', '--output', 'o'], /'--model' must be a model folder to start from; received none/],
    [['--model', 'm', '--output', 'o'], /'--pairs \/ --texts' must be one of them: --pairs FILE .* or --texts FILE .*; received none/],
    [['--model', 'm', '--pairs', 'p', '--texts', 't', '--output', 'o'], /'--pairs \/ --texts' must be one of them.*; received both/],
    [['--model', 'm', '--pairs', 'p', '--output', 'o', '--epochs', '2', '--max-steps', '5'], /'--epochs \/ --max-steps' must be one of them; received both/],
    [['--model', 'm', '--pairs', 'p', '--output', 'o', '--batch-size', '1'], /'--batch-size' must be a whole number from 2 to 4096; received "1"/],
    [['--model', 'm', '--pairs', 'p', '--output', 'o', '--learning-rate', '0'], /'--learning-rate' must be a number in \(0, 1\]; received "0"/],
    [['--model', 'm', '--pairs', 'p', '--output', 'o', '--backend', 'webgl'], /'--backend' must be cpu or wasm \(webgl needs a browser: use the web page\); received webgl\./],
    [['--model', 'm', '--pairs', 'p', '--output', 'o', '--lr', '1'], /'arguments' must be the options of attnkit train; received Unknown option '--lr'/],
  ])('%j is an InvalidArgumentError', (args, message) => {
    const error = thrown(() => parseTrainArgs(args));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('readTexts', () => {
  it('one text per line, or JSONL {"text"}; blank lines skipped', () => {
    expect(readTexts(file('t.txt', 'first text\r\n\nsecond text\n'))).toEqual(['first text', 'second text']);
    expect(readTexts(file('t.jsonl', '{"text": "a b"}\n\n{"text": "c"}\n'))).toEqual(['a b', 'c']);
  });

  it.each([
    ['none.txt', '\n \n', /'--texts' must be at least one text; received .*none\.txt has none/],
    ['bad.jsonl', '{"text": "a"}\n{"body": "b"}\n', /'--texts' must be a JSON object with a non-empty "text"; received .* at .*bad\.jsonl:2/],
    ['broken.jsonl', '{oops\n', /'--texts' must be one JSON object per line; received .* at .*broken\.jsonl:1/],
  ])('%s is an InvalidArgumentError naming the file and line', (name, text, message) => {
    const error = thrown(() => readTexts(file(name, text)));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('attnkit train (the built bin)', () => {
  it('pre-trains the embedded model on texts (masked LM) into a BertForMaskedLM folder that the masked-LM and sentence loaders read', async () => {
    const texts = file('corpus.txt', `${PAIRS.flat().join('\n')}\n`);
    const run = await attnkit(['train', '--model', embeddedModelFolder(), '--texts', texts, '--output', 'pretrained', '--max-steps', '12', '--batch-size', '8', '--learning-rate', '2e-3', '--json'], folder);
    expect([run.code, run.stderr]).toEqual([0, expect.stringMatching(/^attnkit train: 12 steps on 16 texts \(masked-language-model\), loss [\d.]+ -> [\d.]+/m)]);
    const summary = JSON.parse(run.stdout) as TrainSummary;
    expect(summary).toMatchObject({ loss: 'masked-language-model', examples: 16, steps: 12, status: 'complete' });
    expect(summary.lastLoss).toBeLessThan(summary.firstLoss);
    expect([summary.firstLoss, summary.lastLoss].map((v) => v === shortestFloat32(v))).toEqual([true, true]); // float32 losses in their shortest decimals
    const mlm = await loadBertForMaskedLM(join(folder, 'pretrained'));
    expect(mlm.initialisedKeys).toEqual(['bert.pooler.dense.weight', 'bert.pooler.dense.bias']); // the head came from the folder
    mlm.dispose();
    const model = await loadSentenceEncoder(join(folder, 'pretrained'));
    expect((await model.encode(['a cat'])).shape).toEqual([1, model.encoder.config.hiddenSize]);
    model.dispose();
  }, 180_000);

  it('fine-tunes the embedded model on pairs into a folder that loads back; the loss falls; an existing --output is refused', async () => {
    const pairs = file('pairs.tsv', `${PAIRS.map((p) => p.join('\t')).join('\n')}\n`);
    const run = await attnkit(['train', '--model', embeddedModelFolder(), '--pairs', pairs, '--output', 'tuned', '--max-steps', '24', '--batch-size', '8', '--learning-rate', '1e-3', '--warmup-ratio', '0', '--checkpoint-every', '12', '--json'], folder);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as TrainSummary;
    expect(summary).toMatchObject({ output: join(folder, 'tuned'), loss: 'multiple-negatives-ranking', examples: 8, steps: 24, resumedSteps: 0, status: 'complete' });
    expect(summary.lastLoss).toBeLessThan(summary.firstLoss);
    expect(run.stderr).toMatch(/^attnkit train: 24 steps on 8 pairs \(multiple-negatives-ranking\), loss [\d.]+ -> [\d.]+, [\d.]+ steps\/s -> /m);
    const model = await loadSentenceEncoder(join(folder, 'tuned'));
    expect((await model.encode(['a cat'])).shape).toEqual([1, model.encoder.config.hiddenSize]);
    model.dispose();
    const again = await attnkit(['train', '--model', embeddedModelFolder(), '--pairs', pairs, '--output', 'tuned', '--max-steps', '2'], folder);
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/'--output' must be a folder that does not exist yet \(or --overwrite\); received .*tuned exists/)]);
  }, 180_000);

  it('Ctrl-C writes a checkpoint and exits 130; the same command then continues from it', async () => {
    const pairs = file('pairs2.tsv', `${PAIRS.map((p) => p.join('\t')).join('\n')}\n`);
    const args = ['train', '--model', embeddedModelFolder(), '--pairs', pairs, '--output', 'resumed', '--max-steps', '120', '--batch-size', '4', '--learning-rate', '1e-3', '--checkpoint-every', '5', '--json'];
    const checkpoints = join(folder, 'resumed.checkpoints');
    const stopped = await attnkit(args, folder, (child) => {
      const poll = setInterval(() => {
        if (!existsSync(checkpoints)) return; // the first checkpoint (step 5): training is under way
        clearInterval(poll);
        child.kill('SIGINT');
      }, 20);
    });
    expect(stopped.code).toBe(130);
    const interrupted = JSON.parse(stopped.stdout) as TrainSummary;
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.steps).toBeGreaterThan(0);
    expect(readdirSync(checkpoints)).toEqual([`checkpoint-${interrupted.steps}`]);
    const finished = await attnkit(args, folder);
    expect(finished.code).toBe(0);
    expect(JSON.parse(finished.stdout)).toMatchObject({ steps: 120, resumedSteps: interrupted.steps, status: 'complete' });
    expect(interrupted.steps).toBeLessThan(120);
  }, 240_000);
});
