import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tensor2d, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { npyEmbeddings, parseSearchArgs, runSearch } from '@attnkit/cli';
import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import { loadSequenceClassifier } from '@attnkit/models';
import { loadCrossEncoder, semanticSearch, type CrossEncoder, type EmbeddingRows } from '@attnkit/sentence';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const L = 'ModelLoadError';
const R = 'retrieval';
const RERANK = repoPath('tooling/reference/fixtures/rerank/');
const dir = mkdtempSync(join(tmpdir(), 'attnkit-retrieval-catalogue-'));

/** Runs `use` on the one-label BERT cross-encoder fixture, disposing it after. */
async function withCrossEncoder<T>(use: (model: CrossEncoder) => Promise<T>, name = 'cross-encoders/bert'): Promise<T> {
  const model = await loadCrossEncoder(`${RERANK}${name}/`);
  try {
    return await use(model);
  } finally {
    model.dispose();
  }
}
const predict = (pairs: unknown) => withCrossEncoder(async (m) => {
  const scores = await m.predict(pairs as never);
  const shape = scores.shape;
  scores.dispose();
  return shape;
});
const rank = (documents: unknown, options: object = {}) => withCrossEncoder((m) => m.rank('How many people live in Berlin?', documents as never, options));
/** semanticSearch of 2 queries against 4 rows (3 wide), the tensors disposed after. */
async function search(corpusRows: number[][] | Tensor | EmbeddingRows, options: object = {}): Promise<unknown> {
  const queries = tensor2d([[1, 0, 0], [0, 1, 0]]);
  const corpus = Array.isArray(corpusRows) ? tensor2d(corpusRows) : corpusRows;
  try {
    return await semanticSearch(queries, corpus, options);
  } finally {
    queries.dispose();
    if ('dispose' in corpus) corpus.dispose();
  }
}
const ROWS = [[1, 0, 0], [0.5, 0.5, 0], [0, 0, 1], [0, 1, 0]];

/** A classifier folder with its tensors edited (name → { shape, values }). */
function classifierFolder(edit: (tensors: Record<string, { shape: number[]; values: Float32Array }>) => void): string {
  const source = `${RERANK}classifiers/roberta/`;
  const stored = readSafetensors(new Uint8Array(readFileSync(`${source}model.safetensors`)));
  const tensors = Object.fromEntries([...stored.tensors].map(([k, v]) => [k, { shape: [...v.shape], values: Float32Array.from(v.values) }]));
  edit(tensors);
  const folder = mkdtempSync(join(dir, 'classifier-'));
  writeFileSync(join(folder, 'config.json'), readFileSync(`${source}config.json`));
  writeFileSync(join(folder, 'model.safetensors'), writeSafetensors(tensors));
  return folder;
}

// an index of 3 rows 64 wide (the embedded model's width) with its ids, and copies of it gone wrong
const INDEX = join(dir, 'vectors.npy');
const NPY_HEADER = (rows: number, dim: number) => {
  const header = Buffer.alloc(128, 0x20);
  header.set([0x93, ...Buffer.from('NUMPY'), 1, 0, 118, 0]);
  header.write(`{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${dim}), }`, 10, 'latin1');
  header[127] = 0x0a;
  return header;
};
writeFileSync(INDEX, Buffer.concat([NPY_HEADER(3, 64), Buffer.from(new Float32Array(3 * 64).fill(0.125).buffer)]));
writeFileSync(join(dir, 'vectors.ids.jsonl'), '"a"\n"b"\n"c"\n');
const TRUNCATED = join(dir, 'truncated.npy');
writeFileSync(TRUNCATED, readFileSync(INDEX).subarray(0, 128 + 64 * 4 * 2 + 7));
copyFileSync(join(dir, 'vectors.ids.jsonl'), join(dir, 'truncated.ids.jsonl'));
const NARROW = join(dir, 'narrow.npy');
writeFileSync(NARROW, Buffer.concat([NPY_HEADER(2, 5), Buffer.alloc(40)]));
writeFileSync(join(dir, 'narrow.ids.jsonl'), '0\n1\n');

/** Sequence classifiers, cross-encoders, semantic search and attnkit search: hostile pairs, documents, topK, corpora and indexes. */
export const retrievalCases: CatalogueCase[] = [
  rejects(R, 'CrossEncoder.predict given one pair, not a list of pairs', E, "CrossEncoder.predict: 'pairs[0]' must be a [string, string] pair; received string 'How many people live in Berlin?'. For one pair, pass [[first, second]], not [first, second].", () => predict(['How many people live in Berlin?', 'Berlin has 3.5 million people.'])),
  rejects(R, 'CrossEncoder.predict given a pair of three texts', E, `CrossEncoder.predict: 'pairs[1]' must be a [string, string] pair; received array ["a","b","c"].`, () => predict([['a', 'b'], ['a', 'b', 'c']])),
  rejects(R, 'CrossEncoder.predict given a pair holding a number', E, `CrossEncoder.predict: 'pairs[0]' must be a [string, string] pair; received array ["a",7].`, () => predict([['a', 7]])),
  rejects(R, 'CrossEncoder.predict given a string', E, "CrossEncoder.predict: 'pairs' must be a list of [string, string] pairs; received string 'a'. For one pair, pass [[first, second]].", () => predict('a')),
  safely(R, 'CrossEncoder.predict given no pairs', 'an empty [0] tensor, no forward pass', () => predict([]), (shape) => JSON.stringify(shape) === '[0]'),
  safely(R, 'CrossEncoder.rank over no documents', 'an empty ranking [] (as sentence-transformers)', () => rank([]), (v) => Array.isArray(v) && v.length === 0),
  safely(R, 'CrossEncoder.rank over empty-string documents', 'each scored as the pair [query, ""] is (sigmoid: in (0, 1)), ranked as sentence-transformers ranks them', () => rank(['', '']), (v) => Array.isArray(v) && v.length === 2 && (v as { score: number }[]).every((r) => r.score > 0 && r.score < 1)),
  rejects(R, 'CrossEncoder.rank with topK 0', E, "CrossEncoder.rank: 'topK' must be an integer from 1 to 9007199254740991; received number 0.", () => rank(['a'], { topK: 0 })),
  rejects(R, 'CrossEncoder.rank with a fractional topK', E, "CrossEncoder.rank: 'topK' must be an integer from 1 to 9007199254740991; received number 1.5.", () => rank(['a'], { topK: 1.5 })),
  rejects(R, 'CrossEncoder.rank with topK Infinity', E, "CrossEncoder.rank: 'topK' must be an integer from 1 to 9007199254740991; received number Infinity.", () => rank(['a'], { topK: Infinity })),
  safely(R, 'CrossEncoder.rank with a huge topK (1e15)', 'every document, ranked (as sentence-transformers slices past the end)', () => rank(['a', 'b', 'c'], { topK: 1e15 }), (v) => Array.isArray(v) && v.length === 3),
  rejects(R, 'CrossEncoder.rank on a 3-label cross-encoder', E, "CrossEncoder.rank: 'this' must be a cross-encoder with one label (a relevance score); received one with 3 labels. Score pairs with predict() instead.", () => withCrossEncoder((m) => m.rank('q', ['a']), 'cross-encoders/xlm-roberta')),
  rejects(R, 'CrossEncoder.rank with a document that is not text', E, "CrossEncoder.rank: 'documents[1]' must be a string; received null.", () => rank(['a', null])),
  rejects(R, 'semanticSearch against a corpus of another width', E, "semanticSearch: 'corpusEmbeddings' must be rows of width E = 3, as the queries; received rows of width 4. Embed the queries with the model that embedded the corpus.", () => search([[1, 0, 0, 0]])),
  rejects(R, 'semanticSearch with topK 0', E, "semanticSearch: 'topK' must be an integer from 1 to 9007199254740991; received number 0.", () => search(ROWS, { topK: 0 })),
  rejects(R, 'semanticSearch with a fractional topK', E, "semanticSearch: 'topK' must be an integer from 1 to 9007199254740991; received number 2.5.", () => search(ROWS, { topK: 2.5 })),
  rejects(R, 'semanticSearch with topK Infinity', E, "semanticSearch: 'topK' must be an integer from 1 to 9007199254740991; received number Infinity.", () => search(ROWS, { topK: Infinity })),
  safely(R, 'semanticSearch with a huge topK (1e15)', 'every row for each query, best first (as semantic_search: top_k past the corpus), nothing allocated for the rest', () => search(ROWS, { topK: 1e15 }), (v) => JSON.stringify((v as { corpusId: number }[][]).map((hits) => hits.length)) === '[4,4]'),
  safely(R, 'semanticSearch against an empty corpus [0, E]', 'no hits for any query', () => search(zeros([0, 3])), (v) => JSON.stringify(v) === '[[],[]]'),
  rejects(R, 'semanticSearch given embedding rows whose read returns too few values', E, "semanticSearch: 'corpusEmbeddings.read(0, 4)' must be a Float32Array of 4 × 3 = 12 values; received a Float32Array of 11 values.", () => search({ rows: 4, dim: 3, read: () => new Float32Array(11) })),
  rejects(R, 'loadSequenceClassifier on a base model folder (no head)', L, /^loadSequenceClassifier: model\.safetensors in .*families\/roberta\/? has no classification head \(classifier\.dense\.weight, classifier\.dense\.bias, classifier\.out_proj\.weight, classifier\.out_proj\.bias\)/, () => loadSequenceClassifier(repoPath('tooling/reference/fixtures/families/roberta/')).then((m) => m.dispose())),
  rejects(R, 'loadSequenceClassifier on a folder with part of a head', L, /has part of a classification head: classifier\.out_proj\.bias missing/, () => loadSequenceClassifier(classifierFolder((t) => delete t['classifier.out_proj.bias'])).then((m) => m.dispose())),
  rejects(R, 'loadCrossEncoder on a sentence-embedding folder (Pooling, Normalize)', L, /modules\.json in .* lists Transformer, Pooling, Normalize; a CrossEncoder folder attnkit reads has one Transformer module \(sequence classification\)\./, () => loadCrossEncoder(repoPath('tooling/reference/fixtures/sentence/bert-mean-normalize/')).then((m) => m.dispose())),
  rejects(R, 'npyEmbeddings on a truncated .npy', E, /^npyEmbeddings: 'path' must be 896 bytes \(a 128-byte header and 3 × 64 float32 values\); received 647 bytes \(truncated\?\): .*truncated\.npy\.$/, () => npyEmbeddings(TRUNCATED).close()),
  rejects(R, 'attnkit search on a truncated .npy index', E, /^attnkit search: '--index' must be 896 bytes \(a 128-byte header and 3 × 64 float32 values\); received 647 bytes \(truncated\?\)/, () => runSearch(parseSearchArgs(['--index', TRUNCATED, '--query', 'a', '--backend', 'cpu']))),
  rejects(R, 'attnkit search on an index of another width than the model', E, /^attnkit search: '--index' must be rows as wide as the model's embeddings \(64\): an index embedded with .*; received rows of width 5 in .*narrow\.npy\./, () => runSearch(parseSearchArgs(['--index', NARROW, '--query', 'a', '--backend', 'cpu']))),
  rejects(R, 'attnkit search --top-k 0', E, /^attnkit search: '--top-k' must be a whole number from 1 to 100000; received "0"\./, () => parseSearchArgs(['--index', INDEX, '--query', 'a', '--top-k', '0'])),
];
