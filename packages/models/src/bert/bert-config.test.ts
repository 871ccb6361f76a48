import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { parseBertConfig } from './bert-config.js';

const base = { vocab_size: 100, hidden_size: 32, num_hidden_layers: 2, num_attention_heads: 4, intermediate_size: 64, max_position_embeddings: 16, type_vocab_size: 2 };

describe('parseBertConfig', () => {
  it('reads a Hugging Face config.json with its defaults', () => {
    expect(parseBertConfig({ ...base, hidden_act: 'gelu', layer_norm_eps: 1e-12, architectures: ['BertModel'] })).toEqual({
      modelType: 'bert', vocabSize: 100, hiddenSize: 32, numHiddenLayers: 2, numAttentionHeads: 4, intermediateSize: 64, maxPositionEmbeddings: 16, typeVocabSize: 2,
      layerNormEps: 1e-12, hiddenDropoutProb: 0.1, attentionProbsDropoutProb: 0.1, padTokenId: 0, hiddenAct: 'gelu', initializerRange: 0.02,
      embeddingSize: 32, positionOffset: 0, maxSequenceLength: 16, relativeAttentionNumBuckets: 0, positionEmbeddingType: 'absolute', rotaryValue: false,
    });
  });

  it.each(['relative_key', 'relative_key_query'] as const)('reads position_embedding_type %s (transformers ≤ 4.57), sequences up to max_position_embeddings', (type) => {
    expect(parseBertConfig({ ...base, position_embedding_type: type })).toMatchObject({ positionEmbeddingType: type, maxSequenceLength: 16, rotaryValue: false });
  });

  it.each(['gelu_new', 'gelu_pytorch_tanh', 'relu', 'silu'])('reads hidden_act %s (any Hugging Face ACT2FN name attnkit has)', (act) => {
    expect(parseBertConfig({ ...base, hidden_act: act }).hiddenAct).toBe(act);
  });

  it.each<[string, unknown, string | RegExp]>([
    ['an array', [], "parseBertConfig: 'config' must be a JSON object (config.json); received []."],
    ['a missing vocab_size', { ...base, vocab_size: undefined }, "parseBertConfig: 'vocab_size' must be a positive integer; received undefined."],
    ['a string hidden_size', { ...base, hidden_size: '32' }, 'parseBertConfig: \'hidden_size\' must be a positive integer; received "32".'],
    ['heads that do not divide the width', { ...base, num_attention_heads: 5 }, "parseBertConfig: 'hidden_size' must be divisible by num_attention_heads = 5; received 32."],
    ['an unknown activation', { ...base, hidden_act: 'gelu_exact' }, /^parseBertConfig: 'hidden_act' must be one of "gelu", "gelu_python", "gelu_new", .*"linear"; received "gelu_exact"\.$/],
    ['an inherited key as activation', { ...base, hidden_act: 'constructor' }, /^parseBertConfig: 'hidden_act' must be one of .*; received "constructor"\.$/],
    ['a zero initializer_range', { ...base, initializer_range: 0 }, "parseBertConfig: 'initializer_range' must be a number in (0, 10); received 0."],
    ['ALiBi positions (Jina v2 without its auto_map)', { ...base, position_embedding_type: 'alibi' }, 'parseBertConfig: \'position_embedding_type\' must be "absolute" or "relative_key" or "relative_key_query"; received "alibi". transformers ≤ 4.57 builds these three; ALiBi (Jina v2) and rotary (Nomic) BERTs are other architectures, with their own code.'],
    ['a folder with its own code', { ...base, auto_map: { AutoConfig: 'jinaai/jina-bert-implementation--configuration_bert.JinaBertConfig' } }, /^parseBertConfig: 'auto_map' must be no custom code .*; received AutoConfig → "jinaai\/jina-bert-implementation--configuration_bert\.JinaBertConfig" with model_type absent\. This folder needs its own modelling code \(trust_remote_code=True in transformers\)/],
    ['a decoder', { ...base, is_decoder: true }, "parseBertConfig: 'is_decoder' must be false: attnkit implements the encoder; received true."],
    ['another architecture', { ...base, model_type: 'roberta' }, 'parseBertConfig: \'model_type\' must be "bert"; received "roberta". Other families load with loadEncoder (parseEncoderConfig).'],
    ['a negative eps', { ...base, layer_norm_eps: -1 }, "parseBertConfig: 'layer_norm_eps' must be a number in (0, 1); received -1."],
    ['a dropout of 1', { ...base, hidden_dropout_prob: 1 }, "parseBertConfig: 'hidden_dropout_prob' must be a probability in [0, 1); received 1."],
    ['a pad id outside the vocabulary', { ...base, pad_token_id: 100 }, "parseBertConfig: 'pad_token_id' must be an id in [0, vocab_size = 100); received 100."],
  ])('rejects %s', (_, json, message) => {
    const error = thrown(() => parseBertConfig(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it("treats a '__proto__' key as data: no prototype pollution, no effect on the config", () => {
    const json = JSON.parse(`{"__proto__": {"polluted": true, "hidden_act": "relu"}, ${JSON.stringify(base).slice(1)}`) as unknown;
    expect(parseBertConfig(json).hiddenSize).toBe(32);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
