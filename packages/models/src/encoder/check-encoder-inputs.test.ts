import { tensor2d, variable } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { BertModel } from '../bert/bert-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';
import { checkEmbeddingIds, checkIds } from './check-encoder-inputs.js';

beforeAll(() => useBackend('cpu'));
const config = parseEncoderConfig({ model_type: 'bert', vocab_size: 10, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 4, type_vocab_size: 2 });
let model: BertModel;
beforeAll(() => { model = new BertModel(config, undefined, { seed: 1 }); });
afterAll(() => model.dispose());
const ids = (rows: number[][]) => tensor2d(rows, undefined, 'int32');

describe('checkEmbeddingIds (an embeddings module called directly)', () => {
  it.each<[string, () => [unknown, unknown], string]>([
    ['ids that are no tensor', () => ['x', undefined], "BertEmbeddings.forward: 'inputIds' must be an int32 tensor of rank 2 [B, T]; received string 'x'."],
    ['an id past the vocabulary', () => [ids([[1, 10]]), undefined], "BertEmbeddings.forward: 'inputIds[0][1]' must be an id in [0, 10); received 10."],
    ['more tokens than positions', () => [ids([[1, 2, 3, 4, 5]]), undefined], "BertEmbeddings.forward: 'inputIds' must be at most max_position_embeddings = 4 tokens per sequence; received 5 tokens. Truncate when tokenizing (truncation: true, maxLength)."],
    ['a token type past the type vocabulary', () => [ids([[1, 2, 3]]), ids([[0, 1, 2]])], "BertEmbeddings.forward: 'tokenTypeIds[0][2]' must be an id in [0, 2); received 2."],
    ['token types of another shape', () => [ids([[1, 2, 3]]), ids([[0, 1]])], "BertEmbeddings.forward: 'tokenTypeIds' must be the shape of inputIds [1, 3]; received [1, 2]."],
  ])('refuses %s by name, leaking nothing', async (_, make, message) => {
    const [inputIds, types] = make();
    let error: Error | undefined;
    expect(await leaksOf(() => { error = thrown(() => model.embeddings.forward(inputIds as never, types as never)); })).toEqual({ tensors: 0, bytes: 0 });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error?.message).toBe(message);
    [inputIds, types].forEach((t) => (t as { dispose?: () => void } | undefined)?.dispose?.());
  });

  it('does not read again the ids the model forward has checked (one read per forward)', () => {
    const inputIds = ids([[1, 2, 3]]);
    const read = vi.spyOn(inputIds, 'dataSync');
    const { lastHiddenState, poolerOutput } = model.forward({ inputIds });
    expect(read).toHaveBeenCalledTimes(1);
    model.embeddings.forward(inputIds, undefined).dispose(); // checked already: not read again
    expect(read).toHaveBeenCalledTimes(1);
    [inputIds, lastHiddenState, poolerOutput].forEach((t) => t.dispose());
  });

  it('reads a Variable each time (its values may change after a check)', () => {
    const ids = variable(tensor2d([[1, 2]], undefined, 'int32'));
    checkIds('BertModel', 'inputIds', ids, 10);
    ids.assign(tensor2d([[1, 12]], undefined, 'int32'));
    expect(() => checkEmbeddingIds('BertEmbeddings.forward', config, ids)).toThrow("BertEmbeddings.forward: 'inputIds[0][1]' must be an id in [0, 10); received 12.");
    ids.dispose();
  });
});
