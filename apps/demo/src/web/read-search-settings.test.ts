import { describe, expect, it } from 'vitest';
import { PageInputError } from './page-input-error.js';
import { MAX_DOCUMENTS, readSearchSettings } from './read-search-settings.js';

describe('readSearchSettings', () => {
  it('reads one document a line (blank lines left out, each trimmed), the query and top-k as typed', () => {
    expect(readSearchSettings({ corpus: ' A cat. \n\nA dog.\r\n  \n', query: ' kitten ', topK: ' 3 ' })).toEqual({ documents: ['A cat.', 'A dog.'], query: 'kitten', topK: 3 });
    expect(readSearchSettings({ corpus: 'x', query: 'y', topK: '100' }).topK).toBe(100);
  });

  it.each(['', ' \n\t\n'])('a corpus of no documents (%j) names the box', (corpus) => {
    expect(() => readSearchSettings({ corpus, query: 'q', topK: '3' })).toThrow(new PageInputError('Corpus: no documents. Write one document a line.', { field: 'corpus' }));
  });

  it('a corpus past the page\'s bound says how many it holds', () => {
    expect(() => readSearchSettings({ corpus: 'd\n'.repeat(MAX_DOCUMENTS + 1), query: 'q', topK: '3' })).toThrow(`Corpus: ${MAX_DOCUMENTS + 1} documents; the page embeds at most ${MAX_DOCUMENTS}.`);
  });

  it('a blank query names the box', () => {
    const error = (() => { try { readSearchSettings({ corpus: 'd', query: '  ', topK: '3' }); } catch (e) { return e as PageInputError; } })();
    expect(error).toBeInstanceOf(PageInputError);
    expect([error!.field, error!.message]).toEqual(['query', 'Query: empty. Type what to search the corpus for.']);
  });

  it.each(['', '0', '2.5', '101', 'all'])('top-k %j names the box and the range', (topK) => {
    expect(() => readSearchSettings({ corpus: 'd', query: 'q', topK })).toThrow(new PageInputError(`Top k: "${topK}" is not a whole number from 1 to 100.`, { field: 'topK' }));
  });
});
