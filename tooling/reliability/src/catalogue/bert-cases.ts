import { tensor2d, tidy } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadBert, type BertModel } from '@attnkit/models';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const folder = repoPath('tooling/reference/fixtures/bert-b/'); // vocab 53, 12 positions, 3 token types
async function withModel<T>(use: (model: BertModel) => T | Promise<T>): Promise<T> {
  const model = await loadBert(folder);
  try { return await use(model); } finally { model.dispose(); }
}
const forward = (inputs: Parameters<BertModel['forward']>[0]) => withModel((m) => tidy(() => m.forward(inputs).lastHiddenState.shape as never));
/** SentenceEncoder.encode on a sentence-transformers folder (bad arguments fail before any token is looked up). */
const embed = async (texts: unknown, options: object = {}) => {
  const model = await loadSentenceEncoder(repoPath('tooling/reference/fixtures/sentence/bert-prompts/'));
  try {
    const out = await model.encode(texts as never, options);
    const shape = out.shape;
    out.dispose();
    return shape;
  } finally {
    model.dispose();
  }
};

/** BERT forward: ids, masks, token types, lengths, dtypes, lifecycle, backends. */
export const bertCases: CatalogueCase[] = [
  rejects('bert', 'token id outside the vocabulary', E, "BertModel.forward: 'inputIds[0][1]' must be an id in [0, 53); received 53.", () => forward({ inputIds: [[2, 53]] })),
  rejects('bert', 'negative token id', E, "BertModel.forward: 'inputIds[0][0]' must be an id in [0, 53); received -1.", () => forward({ inputIds: [[-1]] })),
  rejects('bert', 'sequence longer than max positions', E, /^BertModel\.forward: 'inputIds' must be at most max_position_embeddings = 12 tokens per sequence; received 13 tokens\./, () => forward({ inputIds: [Array(13).fill(1)] })),
  rejects('bert', 'attention mask of another shape', E, "BertModel.forward: 'attentionMask' must be the shape of inputIds [1, 2]; received [1, 3].", () => forward({ inputIds: [[2, 5]], attentionMask: [[1, 1, 1]] })),
  rejects('bert', 'attention mask value 2', E, "BertModel.forward: 'attentionMask[0][1]' must be an id in [0, 2); received 2.", () => forward({ inputIds: [[2, 5]], attentionMask: [[1, 2]] })),
  rejects('bert', 'token type beyond type_vocab_size', E, "BertModel.forward: 'tokenTypeIds[0][1]' must be an id in [0, 3); received 3.", () => forward({ inputIds: [[2, 5]], tokenTypeIds: [[0, 3]] })),
  rejects('bert', 'ragged batch', E, "BertModel.forward: 'inputIds[1]' must be a row of 2 ids like row 0; received array [3].", () => forward({ inputIds: [[2, 5], [3]] })),
  rejects('bert', 'empty batch', E, "BertModel.forward: 'inputIds' must be a non-empty [B, T] batch (B ≥ 1, T ≥ 1); received [0, 0].", () => forward({ inputIds: [] })),
  rejects('bert', 'zero-length sequence', E, "BertModel.forward: 'inputIds' must be a non-empty [B, T] batch (B ≥ 1, T ≥ 1); received [1, 0].", () => forward({ inputIds: [[]] })),
  rejects('bert', 'NaN token id', E, "BertModel.forward: 'inputIds[0][0]' must be an integer; received number NaN.", () => forward({ inputIds: [[NaN]] })),
  rejects('bert', 'float32 id tensor', E, "BertModel.forward: 'inputIds' must be an int32 tensor of rank 2 [B, T]; received float32 tensor of rank 2 [1, 2].", () => withModel((m) => tidy(() => m.forward({ inputIds: tensor2d([[2, 5]]) }) as never))),
  rejects('bert', 'forward after dispose()', 'UseAfterDisposeError', 'BertModel.forward: called after dispose() freed its weights. Create a new instance instead.', async () => {
    const m = await loadBert(folder);
    m.dispose();
    return m.forward({ inputIds: [[1]] });
  }),
  rejects('bert', 'double dispose()', 'UseAfterDisposeError', 'BertModel.dispose: called after dispose() freed its weights. Create a new instance instead.', async () => {
    const m = await loadBert(folder);
    m.dispose();
    m.dispose();
  }),
  rejects('sentence', 'encode with batchSize 0', E, "SentenceEncoder.encode: 'batchSize' must be an integer ≥ 1; received number 0.", () => embed(['a'], { batchSize: 0 })),
  rejects('sentence', 'encode with an unknown prompt name', E, "SentenceEncoder.encode: 'promptName' must be one of the folder's prompts ('document', 'passage', 'query'); received string 'summary'.", () => embed(['a'], { promptName: 'summary' })),
  rejects('sentence', 'encode given one string, not a list', E, "SentenceEncoder.encode: 'texts' must be a list of strings; received string 'a text'.", () => embed('a text')),
  safely('sentence', 'encode with no texts', 'an empty [0, E] tensor, no forward pass', () => embed([]), (shape) => JSON.stringify(shape) === '[0,32]'),
  safely('bert', 'an all-padding sequence in the batch', 'finite outputs (zero attention for it); the other sequences are unchanged', () => withModel((m) => tidy(() => {
    const both = m.forward({ inputIds: [[2, 5, 7], [0, 0, 0]], attentionMask: [[1, 1, 1], [0, 0, 0]] }).lastHiddenState.arraySync() as number[][][];
    const alone = m.forward({ inputIds: [[2, 5, 7]], attentionMask: [[1, 1, 1]] }).lastHiddenState.arraySync() as number[][][];
    return { finite: both.flat(2).every(Number.isFinite), same: JSON.stringify(both[0]) === JSON.stringify(alone[0]) };
  }) as never), (v) => (v as { finite: boolean; same: boolean }).finite && (v as { same: boolean }).same),
  safely('bert', 'backend switched between load and forward', 'same numbers (tfjs moves the weights to the new backend); ≤ 1e-5 apart', async () => {
    await useBackend('wasm');
    const m = await loadBert(folder);
    try {
      const onWasm = tidy(() => m.forward({ inputIds: [[2, 5, 7]] }).poolerOutput.arraySync() as number[][]);
      await useBackend('cpu');
      const onCpu = tidy(() => m.forward({ inputIds: [[2, 5, 7]] }).poolerOutput.arraySync() as number[][]);
      return Math.max(...onWasm[0]!.map((v, i) => Math.abs(v - onCpu[0]![i]!)));
    } finally {
      m.dispose();
      await useBackend('cpu');
    }
  }, (v) => (v as number) <= 1e-5),
];
