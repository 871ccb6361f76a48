// One corpus group of the peer bench in a fresh Node process:
// `tsx src/peer/corpus/node-corpus.ts '<group key>' <runs> <warm-up texts> [callings,comma-separated]` (attnkit's built packages: built-node-engine.ts) prints its CorpusResult[] as JSON.
import { availableParallelism } from 'node:os';
import { env } from '@tensorflow/tfjs-core';
import { nodeTransformers } from '../node-transformers.js';
import { modelDir } from '../paths.js';
import { createAttnkitCorpus } from './attnkit-corpus.js';
import { nodeCorpusGroups, runCorpusGroup, type CorpusEmbedder, type CorpusResult } from './corpus-engine.js';
import { readCorpusReference } from './corpus-reference.js';
import { createTransformersCorpus } from './transformers-corpus.js';

env().set('PROD', true);

async function main(): Promise<void> {
  const [key, runs, warmup] = [process.argv[2], Number(process.argv[3] ?? 1), Number(process.argv[4] ?? 256)];
  const groups = nodeCorpusGroups(availableParallelism());
  const callings = process.argv[5]?.split(',');
  const found = groups.find((g) => g.key === key);
  const group = found && callings ? { ...found, specs: found.specs.filter((s) => callings.includes(s.calling)) } : found;
  if (group === undefined || group.specs.length === 0) throw new Error(`node-corpus: no group '${key}'; groups: ${groups.map((g) => g.key).join(', ')}`);
  const spec = group.specs[0]!;
  const { texts } = readCorpusReference();
  const create = async (): Promise<CorpusEmbedder> => (spec.library === 'attnkit' ? createAttnkitCorpus(spec, modelDir) : createTransformersCorpus(await nodeTransformers(), spec, 'minilm-shaped'));
  let results: CorpusResult[];
  try {
    results = await runCorpusGroup(group, create, texts, runs, warmup);
  } catch (error) {
    results = group.specs.map((s) => ({ id: s.id, passMs: [], tokens: NaN, threads: '', error: error instanceof Error ? error.message : String(error) }));
  }
  // a few MB through a pipe: wait until it is written, or process.exit() below cuts it
  await new Promise<void>((resolve) => process.stdout.write(`\n@@corpus-result ${JSON.stringify(results)}\n`, () => resolve()));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
