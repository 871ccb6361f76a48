import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { BertModel } from '../bert/bert-model.js';
import { DistilBertModel } from '../distilbert/distilbert-model.js';
import { ElectraModel } from '../electra/electra-model.js';
import { parseEncoderConfig } from './parse-encoder-config.js';
import { MPNetModel } from '../mpnet/mpnet-model.js';
import { RobertaModel } from '../roberta/roberta-model.js';

const config = (name: string) => parseEncoderConfig(JSON.parse(readFileSync(new URL(`../../../../tooling/reference/fixtures/families/${name}/config.json`, import.meta.url), 'utf8')));
beforeAll(() => useBackend('cpu'));

describe('each model class takes only its own model_type', () => {
  it.each<[string, () => unknown, string]>([
    ['BertModel given a RoBERTa config', () => new BertModel(config('roberta')), 'BertModel: \'config.modelType\' must be "bert"; received "roberta". loadEncoder picks the model class from config.json.'],
    ['RobertaModel given a BERT config', () => new RobertaModel(config('bert')), 'RobertaModel: \'config.modelType\' must be "roberta" or "xlm-roberta"; received "bert". loadEncoder picks the model class from config.json.'],
    ['ElectraModel given an MPNet config', () => new ElectraModel(config('mpnet')), 'ElectraModel: \'config.modelType\' must be "electra"; received "mpnet". parseEncoderConfig reads it from config.json; loadEncoder picks the model class.'],
    ['DistilBertModel given a BERT config', () => new DistilBertModel(config('bert')), 'DistilBertModel: \'config.modelType\' must be "distilbert"; received "bert". parseEncoderConfig reads it from config.json; loadEncoder picks the model class.'],
  ])('%s is a typed error', (_, build, message) => {
    const error = thrown(build);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('models built without a checkpoint are initialised as Hugging Face does', () => {
  it.each([['electra', () => new ElectraModel(config('electra'), undefined, { seed: 3 })], ['distilbert', () => new DistilBertModel(config('distilbert'), undefined, { seed: 3 })], ['mpnet', () => new MPNetModel(config('mpnet'), undefined, { seed: 3 })]] as const)('%s: LayerNorms 1 / 0, biases 0, the padding row 0, other weights N(0, initializer_range), reproducible with a seed', (_, build) => {
    const [a, b] = [build(), build()];
    for (const [name, p] of a.namedParameters()) {
      const values = Float32Array.from(p.dataSync());
      const other = new Map(b.namedParameters()).get(name)!.dataSync();
      expect([...values]).toEqual([...other]);
      if (name.endsWith('.bias')) expect(values.every((v) => v === 0), name).toBe(true);
      else if (/LayerNorm|layer_norm/.test(name)) expect(values.every((v) => v === 1), name).toBe(true);
      else {
        const std = Math.sqrt(values.reduce((s, v) => s + v * v, 0) / values.length);
        expect(std / a.config.initializerRange, name).toBeGreaterThan(0.5); // N(0, initializer_range)
        expect(std / a.config.initializerRange, name).toBeLessThan(1.5);
      }
    }
    const words = new Map(a.namedParameters()).get('embeddings.word_embeddings.weight')!;
    const pad = a.config.padTokenId;
    expect([...words.dataSync().slice(pad * (words.shape[1] as number), (pad + 1) * (words.shape[1] as number))].every((v) => v === 0)).toBe(true);
    a.dispose();
    b.dispose();
  });
});
