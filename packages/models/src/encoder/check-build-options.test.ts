import { zeros } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { BertModel } from '../bert/bert-model.js';
import { BertForMaskedLM } from '../bert/bert-for-masked-lm.js';
import { BertForSequenceClassification } from '../bert/bert-for-sequence-classification.js';
import { parseSequenceClassificationConfig } from '../classification/classification-config.js';
import { MPNetModel } from '../mpnet/mpnet-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';
import { checkBuildOptions } from './check-build-options.js';

beforeAll(() => useBackend('cpu'));
const tiny = { model_type: 'bert', vocab_size: 10, hidden_size: 4, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 8, type_vocab_size: 2 };
const caller = 'BertModel';

describe('checkBuildOptions', () => {
  it('takes no checkpoint or a state dict, and options with an integer seed and a boolean newHead', () => {
    expect(() => checkBuildOptions(undefined, {}, ['seed'], caller)).not.toThrow();
    expect(() => checkBuildOptions(new Map(), { seed: -3 }, ['seed'], caller)).not.toThrow();
    expect(() => checkBuildOptions({}, { seed: 1, newHead: true }, ['seed', 'newHead'], caller)).not.toThrow();
  });

  it.each<[string, unknown, unknown, string]>([
    ['a null checkpoint', null, {}, "BertModel: 'checkpoint' must be a state dict (a Map or an object of values by checkpoint key), or undefined for a random initialisation; received null."],
    ['a string checkpoint', 'x', {}, "BertModel: 'checkpoint' must be a state dict (a Map or an object of values by checkpoint key), or undefined for a random initialisation; received string 'x'."],
    ['options of NaN', undefined, NaN, "BertModel: 'options' must be an options object; received number NaN."],
    ['a null seed (it read as seed 0)', undefined, { seed: null }, "BertModel: 'seed' must be an integer; received null."],
    ['an unknown key', undefined, { newHead: true }, "BertModel: 'options' must be an object with only the keys seed; received the unknown key 'newHead'."],
  ])('refuses %s', (_, checkpoint, options, message) => {
    const error = thrown(() => checkBuildOptions(checkpoint, options as never, ['seed'], caller));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('refuses a tensor seed without reading it', () => {
    const seed = zeros([1]);
    seed.dispose();
    expect(() => checkBuildOptions(undefined, { seed } as never, ['seed'], caller)).toThrow(/^BertModel: 'seed' must be an integer; received .*tensor/);
  });

  it('refuses a non-boolean newHead', () => {
    expect(() => checkBuildOptions(undefined, { newHead: 'yes' } as never, ['seed', 'newHead'], 'BertForSequenceClassification')).toThrow("BertForSequenceClassification: 'newHead' must be true or false; received string 'yes'.");
  });

  it('runs in every model constructor before anything is made (a subclass names itself)', () => {
    const config = parseEncoderConfig(tiny);
    expect(() => new BertModel(config, null as never)).toThrow("BertModel: 'checkpoint' must be a state dict");
    expect(() => new BertModel(config, undefined, { seed: null } as never)).toThrow("BertModel: 'seed' must be an integer; received null.");
    expect(() => new MPNetModel(parseEncoderConfig({ ...tiny, model_type: 'mpnet' }), undefined, 'x' as never)).toThrow("MPNetModel: 'options' must be an options object");
    expect(() => new BertForMaskedLM(config, null as never)).toThrow("BertForMaskedLM: 'checkpoint' must be a state dict");
    expect(() => new BertForSequenceClassification(parseSequenceClassificationConfig(tiny), undefined, { newHead: 1 } as never)).toThrow("BertForSequenceClassification: 'newHead' must be true or false; received number 1.");
  });
});
