/** One corpus row found for a query: its row index in the corpus and its score (higher is more similar). */
export interface SearchHit {
  readonly corpusId: number;
  readonly score: number;
}

/** Higher score first; equal scores in corpus order (sentence-transformers leaves their order open). */
const byScore = (a: SearchHit, b: SearchHit) => b.score - a.score || a.corpusId - b.corpusId;

/**
 * The best `topK` hits of one query over a corpus read in chunks: each chunk's candidates are added,
 * and the list is cut back to `topK` whenever it holds twice that, so it never holds more than
 * `2 · topK` (or the rows seen). `sorted()` gives them best first, as `semantic_search` returns them.
 *
 * @example
 * const best = new TopHits(10);
 * best.add(chunkStart + index, score); // for each candidate of each chunk
 * best.sorted(); // [{ corpusId, score }, ...], at most 10
 */
export class TopHits {
  readonly topK: number;
  #hits: SearchHit[] = [];

  constructor(topK: number) {
    this.topK = topK;
  }

  add(corpusId: number, score: number): void {
    this.#hits.push({ corpusId, score });
    if (this.#hits.length >= 2 * this.topK && this.#hits.length > 1) this.#hits = this.#hits.sort(byScore).slice(0, this.topK);
  }

  /** The best `topK`, highest score first, equal scores in corpus order. */
  sorted(): SearchHit[] {
    return this.#hits.sort(byScore).slice(0, this.topK);
  }
}
