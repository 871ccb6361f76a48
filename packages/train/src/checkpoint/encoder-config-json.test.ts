import { readFile } from 'node:fs/promises';
import { parseEncoderConfig, MODEL_TYPES } from '@attnkit/models';
import { describe, expect, it } from 'vitest';
import { encoderConfigJson } from './encoder-config-json.js';

const FAMILIES = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/families/', import.meta.url).pathname);
const FIXTURES = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/', import.meta.url).pathname);

describe('encoderConfigJson', () => {
  it.each(['bert', 'distilbert', 'roberta', 'xlm-roberta', 'electra', 'mpnet'])('%s: parses back to the same config, keeps the keys attnkit does not read, and says float32', async (family) => {
    const original = JSON.parse(await readFile(`${FAMILIES}${family}/config.json`, 'utf8')) as Record<string, unknown>;
    const config = parseEncoderConfig(original);
    const written = encoderConfigJson(config, { ...original, torch_dtype: 'float16' });
    expect(parseEncoderConfig(written)).toEqual(config);
    expect(written).toMatchObject({ ...original, dtype: 'float32' });
    expect(written).not.toHaveProperty('torch_dtype');
    expect(MODEL_TYPES).toContain(written['model_type']);
  });

  it.each(['bert-relative-key-query', 'electra-relative-key', 'roformer-rotary-value', 'roformer'])('%s: position type, rotary_value and embedding_size survive a config written without the original', async (name) => {
    const config = parseEncoderConfig(JSON.parse(await readFile(`${FAMILIES}../relative-roformer/${name}/config.json`, 'utf8')));
    expect(parseEncoderConfig(encoderConfigJson(config))).toEqual(config);
  });

  it.each(['modernbert/mean', 'modernbert/sentence-mean'])('%s: ModernBERT parses back to the same config, under its own key names', async (path) => {
    const original = JSON.parse(await readFile(`${FIXTURES}${path}/config.json`, 'utf8')) as Record<string, unknown>;
    const config = parseEncoderConfig(original);
    for (const written of [encoderConfigJson(config, original), encoderConfigJson(config)]) {
      expect(parseEncoderConfig(written)).toEqual(config);
      expect(written).not.toHaveProperty('hidden_act');
      expect(written).not.toHaveProperty('layer_norm_eps');
    }
    expect(encoderConfigJson(config, original)).toMatchObject({ ...original, dtype: 'float32' });
  });

  it('writes a complete config without the original (architectures from the family)', async () => {
    const config = parseEncoderConfig(JSON.parse(await readFile(`${FAMILIES}distilbert/config.json`, 'utf8')));
    const written = encoderConfigJson(config);
    expect(parseEncoderConfig(written)).toEqual(config);
    expect(written).toMatchObject({ architectures: ['DistilBertModel'], dim: config.hiddenSize, n_layers: config.numHiddenLayers });
  });
});
