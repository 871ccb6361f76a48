import { readFile } from 'node:fs/promises';
import { parseEncoderConfig, MODEL_TYPES } from '@attnkit/models';
import { describe, expect, it } from 'vitest';
import { encoderConfigJson } from './encoder-config-json.js';

const FAMILIES = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/families/', import.meta.url).pathname);

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

  it('writes a complete config without the original (architectures from the family)', async () => {
    const config = parseEncoderConfig(JSON.parse(await readFile(`${FAMILIES}distilbert/config.json`, 'utf8')));
    const written = encoderConfigJson(config);
    expect(parseEncoderConfig(written)).toEqual(config);
    expect(written).toMatchObject({ architectures: ['DistilBertModel'], dim: config.hiddenSize, n_layers: config.numHiddenLayers });
  });
});
