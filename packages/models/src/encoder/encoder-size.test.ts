import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { ResourceLimitError, InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { BertModel } from '../bert/bert-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';
import { checkEncoderSize, encoderParameterCount } from './encoder-size.js';

beforeAll(() => useBackend('cpu'));
const base = { model_type: 'bert', vocab_size: 30522, hidden_size: 768, num_hidden_layers: 12, num_attention_heads: 12, intermediate_size: 3072, max_position_embeddings: 512, type_vocab_size: 2 };

describe('encoderParameterCount', () => {
  // Parameter counts of transformers' own models built from these configs (sum of p.numel(),
  // transformers 5.17: BertModel(BertConfig()) and ElectraModel(ElectraConfig())): the estimate is an
  // upper bound, within 0.1 % for BERT and 1 % for ELECTRA (which has no pooler; the estimate counts one).
  it.each([
    ['bert-base', base, 109_482_240, 1.001],
    ['electra-small (E = 128 projected to H = 256)', { model_type: 'electra', vocab_size: 30522, embedding_size: 128, hidden_size: 256, num_hidden_layers: 12, num_attention_heads: 4, intermediate_size: 1024, max_position_embeddings: 512, type_vocab_size: 2 }, 13_483_008, 1.01],
  ])('bounds %s from above, close to transformers', (_, json, actual, ratio) => {
    const estimate = encoderParameterCount(parseEncoderConfig(json));
    expect(estimate).toBeGreaterThanOrEqual(actual);
    expect(estimate / actual).toBeLessThan(ratio);
  });
});

describe('checkEncoderSize', () => {
  it('refuses a config.json claiming a billion-token vocabulary before anything is allocated', () => {
    const error = thrown(() => parseEncoderConfig({ ...base, vocab_size: 1_000_000_000 }));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect(error.message).toMatch(/^parseEncoderConfig: the 7\.68e\+11 float32 parameters this config describes need 2861\.\d GiB, more than the 4\.0 GiB any backend allows \(attnkit builds encoders of at most 2³⁰ parameters, the whole wasm32 heap\)\. Check vocab_size/);
  });

  it('refuses a million layers, and says how many it builds', () => {
    expect(thrown(() => parseEncoderConfig({ ...base, hidden_size: 8, num_attention_heads: 2, intermediate_size: 8, num_hidden_layers: 1_000_000 })).message).toBe("parseEncoderConfig: 'num_hidden_layers' must be at most 1024 layers; received 1000000.");
  });

  it('is applied by the model constructors to configs made by hand', () => {
    const config = { ...parseEncoderConfig(base), vocabSize: 2 ** 31 };
    expect(thrown(() => new BertModel(config))).toBeInstanceOf(ResourceLimitError);
  });

  it('accepts the largest published encoders', () => {
    expect(() => checkEncoderSize(parseEncoderConfig({ ...base, hidden_size: 1024, num_hidden_layers: 24, num_attention_heads: 16, intermediate_size: 4096, vocab_size: 250002, max_position_embeddings: 514 }))).not.toThrow(); // XLM-R large
  });

  it('refuses what is not a config, or sizes that are not positive integers (never NaN)', () => {
    expect(thrown(() => checkEncoderSize(null as never))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => encoderParameterCount({} as never)).message).toBe("encoderParameterCount: 'vocabSize' must be an integer ≥ 1; received undefined.");
    expect(thrown(() => checkEncoderSize({ ...parseEncoderConfig(base), hiddenSize: 2.5 }))).toBeInstanceOf(InvalidArgumentError);
  });
});

describe('checkEncoderSize refusals', () => {
  it('refuses a layer count that is no number by name, without comparing (reading) it', () => {
    const layers = { valueOf: () => { throw new Error('read'); } };
    expect(() => checkEncoderSize({ ...parseEncoderConfig(base), numHiddenLayers: layers as never })).toThrow(/^checkEncoderSize: 'numHiddenLayers' must be an integer/);
  });
});
