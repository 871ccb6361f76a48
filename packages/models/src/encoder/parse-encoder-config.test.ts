import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import families from '@attnkit/reference/fixtures/families.json' with { type: 'json' };
import { readFileSync } from 'node:fs';
import { parseEncoderConfig } from './parse-encoder-config.js';

const config = (name: string) => JSON.parse(readFileSync(new URL(`../../../../tooling/reference/fixtures/families/${name}/config.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('parseEncoderConfig', () => {
  it.each(Object.keys(families))('reads the %s config.json transformers wrote', (name) => {
    const c = parseEncoderConfig(config(name));
    expect(c.modelType).toBe(config(name)['model_type']);
    expect([c.hiddenSize, c.numHiddenLayers, c.numAttentionHeads]).toEqual([32, 2, 4]);
  });

  it('reads each family in BERT words: DistilBERT renames, RoBERTa-style positions, ELECTRA widths, MPNet buckets', () => {
    expect(parseEncoderConfig(config('distilbert'))).toMatchObject({ hiddenSize: 32, intermediateSize: 64, typeVocabSize: 0, positionOffset: 0, hiddenAct: 'gelu' });
    expect(parseEncoderConfig(config('roberta'))).toMatchObject({ padTokenId: 1, positionOffset: 2, maxPositionEmbeddings: 66, maxSequenceLength: 64, typeVocabSize: 1 });
    expect(parseEncoderConfig(config('electra'))).toMatchObject({ embeddingSize: 16, hiddenSize: 32 });
    expect(parseEncoderConfig(config('mpnet'))).toMatchObject({ relativeAttentionNumBuckets: 32, typeVocabSize: 0, positionOffset: 2 });
  });

  it.each<[string, Record<string, unknown>, string | RegExp]>([
    ['an unsupported model_type, naming the supported ones', { ...config('bert'), model_type: 'funnel' }, 'parseEncoderConfig: \'model_type\' must be one of "bert", "distilbert", "roberta", "xlm-roberta", "electra", "mpnet", "roformer", "modernbert"; received "funnel". docs/models.md lists what loads.'],
    ['a position type RoBERTa does not have', { ...config('roberta'), position_embedding_type: 'rotary' }, /^parseEncoderConfig: 'position_embedding_type' must be "absolute" or "relative_key" or "relative_key_query"; received "rotary"\./],
    ['relative positions in MPNet', { ...config('mpnet'), position_embedding_type: 'relative_key' }, /^parseEncoderConfig: 'position_embedding_type' must be "absolute"; received "relative_key"\. This family has absolute positions only/],
    ['DistilBERT heads that do not divide dim', { ...config('distilbert'), n_heads: 5 }, "parseEncoderConfig: 'dim' must be divisible by n_heads = 5; received 32."],
    ['a RoBERTa position table no longer than the padding offset', { ...config('roberta'), max_position_embeddings: 2 }, "parseEncoderConfig: 'max_position_embeddings' must be more than pad_token_id + 1 = 2 (positions start after the padding id); received 2."],
    ['an ELECTRA embedding_size of 0', { ...config('electra'), embedding_size: 0 }, "parseEncoderConfig: 'embedding_size' must be a positive integer; received 0."],
    ['a model_type that is not a string', { ...config('bert'), model_type: 7 }, /^parseEncoderConfig: 'model_type' must be one of .*; received 7\./],
  ])('rejects %s', (_, json, message) => {
    const error = thrown(() => parseEncoderConfig(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });
});

describe('a caller that is no string', () => {
  it('names the function itself in messages (the caller only names the function)', async () => {
    const { parseBertConfig } = await import('../bert/bert-config.js');
    const { checkEncoderSize } = await import('./encoder-size.js');
    const { checkNotRemoteCode } = await import('./check-remote-code.js');
    expect(() => parseEncoderConfig({ hidden_size: 'x' }, Number.NaN as never)).toThrow(/^parseEncoderConfig: /);
    expect(() => parseBertConfig({ vocab_size: 0 }, {} as never)).toThrow(/^parseBertConfig: 'vocab_size' must be a positive integer/);
    expect(() => checkEncoderSize({ ...parseEncoderConfig(config('bert')), numHiddenLayers: 1e9 }, null as never)).toThrow(/^checkEncoderSize: 'num_hidden_layers' must be at most 1024 layers/);
    expect(() => checkNotRemoteCode({ auto_map: { AutoModel: 'x.Y' } }, [1] as never)).toThrow(/^checkNotRemoteCode: /);
  });
});
