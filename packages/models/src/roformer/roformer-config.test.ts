import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { readFileSync } from 'node:fs';
import { parseEncoderConfig } from '../encoder/parse-encoder-config.js';
import { parseRoFormerConfig } from './roformer-config.js';

const config = (name: string) => JSON.parse(readFileSync(new URL(`../../../../tooling/reference/fixtures/relative-roformer/${name}/config.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('parseRoFormerConfig', () => {
  it('reads the config.json transformers 5.17 wrote: rotary positions, embedding_size, rotary_value', () => {
    expect(parseEncoderConfig(config('roformer'))).toMatchObject({ modelType: 'roformer', positionEmbeddingType: 'rotary', rotaryValue: false, embeddingSize: 24, hiddenSize: 32, maxSequenceLength: 24, typeVocabSize: 2 });
    expect(parseRoFormerConfig(config('roformer-rotary-value'))).toMatchObject({ rotaryValue: true, embeddingSize: 32, hiddenAct: 'gelu_new' });
    expect(parseRoFormerConfig({ ...config('roformer'), embedding_size: null }).embeddingSize).toBe(32); // null: hidden_size, as RoFormerConfig
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an odd head width', { ...config('roformer'), hidden_size: 36, num_attention_heads: 4 }, "parseRoFormerConfig: 'hidden_size' must be an even head width hidden_size / num_attention_heads (rotary embeddings turn pairs of dimensions); received 36 / 4 = 9."],
    ['a rotary_value that is not a boolean', { ...config('roformer'), rotary_value: 'yes' }, "parseRoFormerConfig: 'rotary_value' must be true or false; received \"yes\"."],
    ['an embedding_size of 0', { ...config('roformer'), embedding_size: 0 }, "parseRoFormerConfig: 'embedding_size' must be a positive integer; received 0."],
    ['another model_type', { ...config('roformer'), model_type: 'bert' }, 'parseRoFormerConfig: \'model_type\' must be "roformer"; received "bert". Other families load with loadEncoder (parseEncoderConfig).'],
  ])('rejects %s', (_, json, message) => {
    const error = thrown(() => parseRoFormerConfig(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});
