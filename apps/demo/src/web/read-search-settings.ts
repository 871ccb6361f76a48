import { PageInputError } from './page-input-error.js';

/** What the search panel searches, read from its boxes. */
export interface SearchSettings {
  /** The corpus: one document a line, blank lines left out, each trimmed. */
  readonly documents: string[];
  readonly query: string;
  readonly topK: number;
}

/** Documents the panel embeds at most (a corpus pasted by mistake should not freeze the tab). */
export const MAX_DOCUMENTS = 5000;
/** Hits it shows at most. */
export const MAX_TOP_K = 100;

/**
 * Reads the search panel's boxes as typed: the corpus (one document a line, at least one, at most
 * {@link MAX_DOCUMENTS}), the query (not blank) and top-k (a whole number from 1 to {@link MAX_TOP_K}).
 * A box that does not read is a `PageInputError` naming it and quoting what it holds.
 *
 * @example
 * readSearchSettings({ corpus: 'A cat.\n\nA dog.', query: 'kitten', topK: '3' }); // { documents: ['A cat.', 'A dog.'], query: 'kitten', topK: 3 }
 */
export function readSearchSettings(inputs: { readonly corpus: string; readonly query: string; readonly topK: string }): SearchSettings {
  const documents = inputs.corpus.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  if (documents.length === 0) throw new PageInputError('Corpus: no documents. Write one document a line.', { field: 'corpus' });
  if (documents.length > MAX_DOCUMENTS) throw new PageInputError(`Corpus: ${documents.length} documents; the page embeds at most ${MAX_DOCUMENTS}.`, { field: 'corpus' });
  const query = inputs.query.trim();
  if (query === '') throw new PageInputError('Query: empty. Type what to search the corpus for.', { field: 'query' });
  const topK = Number(inputs.topK.trim());
  if (inputs.topK.trim() === '' || !Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) throw new PageInputError(`Top k: "${inputs.topK}" is not a whole number from 1 to ${MAX_TOP_K}.`, { field: 'topK' });
  return { documents, query, topK };
}
