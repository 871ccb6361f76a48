import { concat, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkOptionKeys, describeValue, formatShape, isTensorLike } from '@attnkit/errors';
import type { WordnetSynset } from '../data/wordnet-synset.js';
import { retrievalMetrics, type RetrievalMetrics } from './retrieval-metrics.js';

/** Texts → their embeddings `[N, E]` (a tensor the caller disposes), e.g. `(texts) => model.encode(texts)`. */
export type EmbedTexts = (texts: string[]) => Promise<Tensor2D>;

/** Options of {@link evaluateWordnetRetrieval}. */
export interface EvaluateWordnetRetrievalOptions {
  /** `'examples'` (default): every example sentence is a query; `'lemmas'`: every synset's lemma list (`'dog, domestic dog, Canis familiaris'`). */
  readonly queries?: 'examples' | 'lemmas';
  /** Texts per `embed` call (default 256). */
  readonly batchSize?: number;
}

/** {@link RetrievalMetrics} and the size of the corpus searched. */
export interface WordnetRetrievalResult extends RetrievalMetrics {
  /** Corpus rows C: one definition per held-out synset. */
  readonly corpus: number;
}

/** Embeds `texts` `batchSize` at a time → `[N, E]`; every batch must come back `[n, E]` with one E. */
async function embedAll(embed: EmbedTexts, texts: readonly string[], batchSize: number, what: string): Promise<Tensor2D> {
  const caller = 'evaluateWordnetRetrieval';
  const parts: Tensor[] = [];
  try {
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      const out: unknown = await embed(batch);
      if (isTensorLike(out)) parts.push(out as Tensor);
      const width = parts[0]?.shape[1];
      if (!isTensorLike(out) || out.dtype !== 'float32' || out.shape.length !== 2 || out.shape[0] !== batch.length || out.shape[1] !== width) {
        throw new InvalidArgumentError({ caller, argument: 'embed', expected: `a function returning a float32 tensor [N, E] for N texts (here [${batch.length}, ${width ?? 'E'}], for ${what})`, received: isTensorLike(out) ? `${out.dtype} ${formatShape(out.shape)}` : describeValue(out) });
      }
    }
    return (parts.length === 1 ? (parts[0] as Tensor).clone() : concat(parts, 0)) as Tensor2D; // [N, E]
  } finally {
    parts.forEach((t) => t.dispose());
  }
}

/**
 * Definition retrieval on held-out WordNet synsets: every held-out definition is embedded as the
 * corpus, and each query — an example sentence (`queries: 'examples'`) or a lemma list
 * (`'lemmas'`) of a synset — must find its own synset's definition among them by cosine
 * similarity ({@link retrievalMetrics}: recall@1, recall@10, MRR, ties counted against). Use the
 * `heldOut` of `splitSynsets`, whose definitions are distinct; duplicate definitions would tie.
 * `embed` is called with at most `batchSize` texts at a time; its tensors are disposed here.
 *
 * @example
 * const { heldOut } = splitSynsets(await readWordnet(dict), { heldOutFraction: 0.1 });
 * await evaluateWordnetRetrieval((texts) => model.encode(texts), heldOut, { queries: 'examples' });
 * // { recallAt1, recallAt10, mrr, queries: 4615, corpus: 11634 }
 */
export async function evaluateWordnetRetrieval(embed: EmbedTexts, heldOut: readonly WordnetSynset[], options: EvaluateWordnetRetrievalOptions = {}): Promise<WordnetRetrievalResult> {
  const caller = 'evaluateWordnetRetrieval';
  checkOptionKeys(options, ['queries', 'batchSize'], caller);
  if (typeof embed !== 'function') throw new InvalidArgumentError({ caller, argument: 'embed', expected: 'a function (texts: string[]) => Promise<Tensor2D>', received: describeValue(embed) });
  const mode = options.queries === undefined ? 'examples' : options.queries;
  if (mode !== 'examples' && mode !== 'lemmas') throw new InvalidArgumentError({ caller, argument: 'queries', expected: "'examples' or 'lemmas'", received: describeValue(mode) });
  const batchSize = checkInteger(options.batchSize === undefined ? 256 : options.batchSize, { caller, argument: 'batchSize', min: 1 });
  if (!Array.isArray(heldOut)) throw new InvalidArgumentError({ caller, argument: 'heldOut', expected: 'a list of synsets (splitSynsets(...).heldOut)', received: describeValue(heldOut) });

  const definitions: string[] = [];
  const queryTexts: string[] = [];
  const relevant: number[] = [];
  heldOut.forEach((synset, i) => {
    if (typeof synset?.definition !== 'string' || !Array.isArray(synset.lemmas) || !Array.isArray(synset.examples)) {
      throw new InvalidArgumentError({ caller, argument: `heldOut[${i}]`, expected: 'a synset { id, pos, lemmas, definition, examples }', received: describeValue(synset) });
    }
    const row = definitions.push(synset.definition) - 1;
    for (const query of mode === 'lemmas' ? [synset.lemmas.join(', ')] : synset.examples) {
      queryTexts.push(query);
      relevant.push(row);
    }
  });
  if (queryTexts.length === 0) throw new InvalidArgumentError({ caller, argument: 'heldOut', expected: `synsets with at least one ${mode === 'lemmas' ? 'lemma list' : 'example'} to query with`, received: `${heldOut.length} synsets without any` });

  const corpus = await embedAll(embed, definitions, batchSize, 'the definitions');
  try {
    const queries = await embedAll(embed, queryTexts, batchSize, `the ${mode}`);
    try {
      if (queries.shape[1] !== corpus.shape[1]) throw new InvalidArgumentError({ caller, argument: 'embed', expected: `one width E for queries and corpus (${corpus.shape[1]})`, received: `queries of width ${queries.shape[1]}` });
      return { ...(await retrievalMetrics(queries, corpus, relevant)), corpus: definitions.length };
    } finally {
      queries.dispose();
    }
  } finally {
    corpus.dispose();
  }
}
