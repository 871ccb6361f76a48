import { engine, type Tensor2D } from '@tensorflow/tfjs-core';
import { semanticSearch, type SearchHit, type SentenceEncoder } from '@attnkit/sentence';
import { readSearchSettings } from './read-search-settings.js';

/** One hit of the search panel: the document's line among the documents (0-based), its text and its cosine similarity to the query. */
export interface SearchPanelHit {
  readonly corpusId: number;
  readonly document: string;
  readonly score: number;
}

/** One search of the panel: what the page exposes and the end-to-end test reads. */
export interface SearchRun {
  readonly backend: string;
  readonly documents: number;
  readonly query: string;
  readonly topK: number;
  /** Best first, at most `topK`. */
  readonly hits: SearchPanelHit[];
  /** Time to embed the corpus; `reused` when its embeddings were already there (same documents, model and backend). */
  readonly embedMs: number;
  readonly reused: boolean;
  /** Time to embed the query and search the corpus embeddings. */
  readonly queryMs: number;
}

/** The panel's elements. */
export interface SearchPanelElements {
  readonly corpus: HTMLTextAreaElement;
  readonly query: HTMLInputElement;
  readonly topK: HTMLInputElement;
  readonly status: HTMLElement;
  readonly hits: HTMLOListElement;
}

/** The corpus embeddings kept between searches, and what they were made from. */
interface EmbeddedCorpus {
  readonly model: SentenceEncoder;
  readonly backend: string;
  readonly documents: string[];
  readonly embeddings: Tensor2D; // [N, E]
  readonly embedMs: number;
}

const sameDocuments = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/**
 * The "Semantic search" panel: `search` embeds the corpus box (one document a line) with the page's
 * sentence encoder on the current backend, then the query, and lists the `topK` documents most
 * similar to it (`semanticSearch` of `@attnkit/sentence`, cosine) with their scores, and the time
 * each part took. The corpus embeddings `[N, E]` are kept for the next query while the documents,
 * the model and the backend stay the same; `reset` disposes them (the page calls it when the model
 * is replaced or fine-tuned). Bad input throws before anything is embedded (a `PageInputError`).
 *
 * @example
 * const panel = searchPanel(elements);
 * const run = await panel.search(model); // run.hits[0]: { corpusId, document, score }
 */
export function searchPanel(elements: SearchPanelElements): { search: (model: SentenceEncoder) => Promise<SearchRun>; reset: () => void } {
  let corpus: EmbeddedCorpus | undefined;

  function reset(): void {
    corpus?.embeddings.dispose();
    corpus = undefined;
  }

  async function embedCorpus(model: SentenceEncoder, documents: string[], backend: string): Promise<EmbeddedCorpus> {
    reset();
    elements.status.textContent = `embedding ${documents.length} documents on ${backend}…`;
    const started = performance.now();
    const embeddings = await model.encode(documents); // [N, E]
    await embeddings.data(); // the time includes the work a GPU backend queued
    corpus = { model, backend, documents, embeddings, embedMs: performance.now() - started };
    return corpus;
  }

  async function search(model: SentenceEncoder): Promise<SearchRun> {
    const { documents, query, topK } = readSearchSettings({ corpus: elements.corpus.value, query: elements.query.value, topK: elements.topK.value });
    const backend = engine().backendName;
    const reused = corpus !== undefined && corpus.model === model && corpus.backend === backend && sameDocuments(corpus.documents, documents);
    const embedded = reused ? corpus! : await embedCorpus(model, documents, backend);
    const started = performance.now();
    const queryEmbedding = await model.encode([query]); // [1, E]
    let hits: SearchHit[];
    try {
      hits = (await semanticSearch(queryEmbedding, embedded.embeddings, { topK }))[0]!;
    } finally {
      queryEmbedding.dispose();
    }
    const queryMs = performance.now() - started;
    const run: SearchRun = { backend, documents: documents.length, query, topK, hits: hits.map(({ corpusId, score }) => ({ corpusId, score, document: documents[corpusId]! })), embedMs: embedded.embedMs, reused, queryMs };
    elements.hits.replaceChildren(...run.hits.map((hit) => {
      const item = document.createElement('li');
      item.append(Object.assign(document.createElement('span'), { className: 'score', textContent: hit.score.toFixed(4) }), ' ', hit.document);
      item.dataset['corpusId'] = `${hit.corpusId}`;
      return item;
    }));
    const embedding = reused ? `corpus embeddings reused (${documents.length} documents, embedded in ${embedded.embedMs.toFixed(0)} ms)` : `embedded ${documents.length} documents in ${embedded.embedMs.toFixed(0)} ms`;
    elements.status.textContent = `${embedding} on ${backend} · query embedded and searched in ${queryMs.toFixed(1)} ms`;
    return run;
  }

  return { search, reset };
}
