import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { benchDir } from '../paths.js';
import { nodeEngineCommand } from '../../built-node-engine.js';
import { cosine } from '../stats.js';
import { embeddingRows, type CorpusGroup, type CorpusResult } from './corpus-engine.js';
import type { CorpusReference } from './corpus-reference.js';
import type { CORPUS_SELECTION } from './corpus-texts.js';

/** One engine's corpus numbers in one round, the embeddings replaced by their cosines against the float64 reference. */
export type CorpusRoundResult = Omit<CorpusResult, 'embeddings' | 'ids'> & {
  readonly where: 'Chromium' | 'Node';
  readonly round: number;
  /** Smallest and mean cosine of the 2 000 embeddings against the float64 PyTorch ones. */
  readonly minCosine: number;
  readonly meanCosine: number;
  /** Texts whose ids (the group's first engine's tokenizer) differ from Python's; undefined when not reported. */
  readonly idsDiffer?: number;
};

/** The corpus part of peer-results.json. */
export interface CorpusRun {
  readonly runs: number;
  /** Texts of the warm-up after the model load (the first ones of the corpus). */
  readonly warmup: number;
  readonly selection: typeof CORPUS_SELECTION;
  /** Real tokens of the corpus ([CLS] and [SEP] counted, no padding) and the truncation length. */
  readonly realTokens: number;
  readonly length: number;
  readonly texts: number;
  readonly groups: { Chromium: CorpusGroup[]; Node: CorpusGroup[] };
  readonly results: CorpusRoundResult[];
}

/** One corpus group in a fresh Node process (src/peer/corpus/node-corpus.ts). */
export function runCorpusInNode(group: CorpusGroup, runs: number, warmup: number): CorpusResult[] {
  const key = group.key;
  const callings = group.specs.map((s) => s.calling).join(',');
  const [command, args] = nodeEngineCommand(join('peer', 'corpus', 'node-corpus.ts'), [key, String(runs), String(warmup), callings]); // attnkit from its built packages, as installed
  const child = spawnSync(command, args, { cwd: benchDir, encoding: 'utf8', maxBuffer: 256 << 20 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@corpus-result '));
  if (line === undefined) return [{ id: key, passMs: [], tokens: NaN, threads: '', error: `exit ${child.status}: ${child.stderr.trim().split('\n').slice(-3).join(' ')}` }];
  return JSON.parse(line.slice('@@corpus-result '.length)) as CorpusResult[];
}

/** A group's results with cosines against the reference and the ids compared, embeddings dropped. */
export function scoreCorpusResults(results: readonly CorpusResult[], reference: CorpusReference, where: 'Chromium' | 'Node', round: number): CorpusRoundResult[] {
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const idsDiffer = results[0]?.ids === undefined ? undefined : results[0].ids.filter((ids, i) => !same(ids, reference.inputIds[i]!)).length;
  return results.map(({ embeddings, ids: _ids, ...rest }) => {
    let minCosine = NaN;
    let meanCosine = NaN;
    if (embeddings !== undefined) {
      const rows = embeddingRows(embeddings, reference.texts.length);
      const cosines = rows.map((row, i) => cosine(row, reference.embeddings[i]!));
      minCosine = Math.min(...cosines);
      meanCosine = cosines.reduce((a, b) => a + b, 0) / cosines.length;
    }
    return { ...rest, where, round, minCosine, meanCosine, ...(idsDiffer !== undefined ? { idsDiffer } : {}) };
  });
}
