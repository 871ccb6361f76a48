import { beforeAll, describe, expect, it } from 'vitest';
import { memory } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { BertModel } from '../bert/bert-model.js';
import { RoFormerModel } from '../roformer/roformer-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';
import { checkEncoderConfig } from './check-encoder-config.js';

beforeAll(() => useBackend('cpu'));
const tiny = { vocab_size: 10, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 8, type_vocab_size: 2 };
const bert = parseEncoderConfig({ ...tiny, model_type: 'bert' });

describe('checkEncoderConfig', () => {
  it('takes what the parsers give, and a copy changed within range', () => {
    expect(checkEncoderConfig(bert, 'BertModel')).toBe(bert);
    expect(() => checkEncoderConfig({ ...bert, numHiddenLayers: 3, hiddenDropoutProb: 0.5 }, 'BertModel')).not.toThrow();
  });

  it.each<[string, object, string]>([
    ['a NaN width', { hiddenSize: Number.NaN }, "BertModel: 'config.hiddenSize' must be a positive integer; received number NaN. parseEncoderConfig reads a config from config.json."],
    ['heads that do not divide the width', { numAttentionHeads: 3 }, "BertModel: 'config.numAttentionHeads' must be a divisor of hiddenSize = 8; received number 3. parseEncoderConfig reads a config from config.json."],
    ['a padding id past the vocabulary', { padTokenId: 10 }, "BertModel: 'config.padTokenId' must be an id in [0, vocabSize = 10); received number 10. parseEncoderConfig reads a config from config.json."],
    ['a longest sequence past the position table', { maxSequenceLength: 9 }, "BertModel: 'config.maxSequenceLength' must be within the position table (maxPositionEmbeddings, less positionOffset for absolute positions); received number 9. parseEncoderConfig reads a config from config.json."],
    ['a dropout of 1', { attentionProbsDropoutProb: 1 }, "BertModel: 'config.attentionProbsDropoutProb' must be a probability in [0, 1); received number 1. parseEncoderConfig reads a config from config.json."],
    ['an unknown position type', { positionEmbeddingType: 'alibi' }, "BertModel: 'config.positionEmbeddingType' must be 'absolute', 'relative_key', 'relative_key_query', 'rotary'; received string 'alibi'. parseEncoderConfig reads a config from config.json."],
    ['a rotaryValue of null', { rotaryValue: null }, "BertModel: 'config.rotaryValue' must be true or false; received null. parseEncoderConfig reads a config from config.json."],
  ])('refuses %s by its field', (_, change, message) => {
    const error = thrown(() => checkEncoderConfig({ ...bert, ...change }, 'BertModel'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('runs in the model constructors before anything is made', () => {
    const before = memory().numTensors;
    expect(() => new BertModel({ ...bert, initializerRange: -1 })).toThrow("BertModel: 'config.initializerRange' must be a finite number ≥ 0; received number -1.");
    expect(() => new RoFormerModel({ ...parseEncoderConfig({ ...tiny, model_type: 'roformer' }), hiddenAct: 'x' })).toThrow(InvalidArgumentError); // refused before its sinusoidal table
    expect(memory().numTensors).toBe(before);
  });
});
