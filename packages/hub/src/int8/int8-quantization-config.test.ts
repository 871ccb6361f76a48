import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { int8QuantizationConfig, parseInt8QuantizationConfig } from './int8-quantization-config.js';

describe('int8QuantizationConfig', () => {
  it("writes compressed-tensors' int-quantized W8A8 block (channel-wise weights, dynamic per-token activations)", () => {
    expect(int8QuantizationConfig(['cls.predictions.transform.dense'])).toEqual({
      quant_method: 'compressed-tensors',
      format: 'int-quantized',
      quantization_status: 'compressed',
      config_groups: {
        group_0: {
          targets: ['Linear'],
          weights: { num_bits: 8, type: 'int', symmetric: true, strategy: 'channel', dynamic: false, group_size: null },
          input_activations: { num_bits: 8, type: 'int', symmetric: true, strategy: 'token', dynamic: true, group_size: null },
          output_activations: null,
        },
      },
      ignore: ['cls.predictions.transform.dense'],
      kv_cache_scheme: null,
    });
  });
});

describe('parseInt8QuantizationConfig', () => {
  const block = () => JSON.parse(JSON.stringify(int8QuantizationConfig())) as { config_groups: { group_0: Record<string, Record<string, unknown> | null> } } & Record<string, unknown>;

  it('reads what int8QuantizationConfig writes, and is false without one or for another method', () => {
    expect(parseInt8QuantizationConfig(block())).toBe(true);
    expect(parseInt8QuantizationConfig(undefined)).toBe(false);
    expect(parseInt8QuantizationConfig({ quant_method: 'gptq', bits: 4 })).toBe(false);
  });

  it.each<[string, (c: ReturnType<typeof block>) => void, string]>([
    ['another format', (c) => { c['format'] = 'pack-quantized'; }, "'quantization_config.format' must be \"int-quantized\"; received \"pack-quantized\"."],
    ['float values stored (frozen)', (c) => { c['quantization_status'] = 'frozen'; }, "'quantization_config.quantization_status' must be \"compressed\" (int8 values stored, not float ones); received \"frozen\"."],
    ['4-bit weights', (c) => { c.config_groups.group_0['weights']!['num_bits'] = 4; }, "'quantization_config.config_groups.group_0.weights' must be { num_bits: 8, type: \"int\", symmetric: true, strategy: \"channel\" }; received {\"num_bits\":4,"],
    ['per-tensor weights', (c) => { c.config_groups.group_0['weights']!['strategy'] = 'tensor'; }, '"strategy":"tensor"'],
    ['grouped weights', (c) => { c.config_groups.group_0['weights']!['group_size'] = 128; }, "'quantization_config.config_groups.group_0.weights' must be static weights without groups (dynamic: false, group_size: null)"],
    ['weight-only int8 (no activation quantization)', (c) => { c.config_groups.group_0['input_activations'] = null; }, "'quantization_config.config_groups.group_0.input_activations' must be { num_bits: 8, type: \"int\", symmetric: true, strategy: \"token\", dynamic: true } (Int8Linear quantizes each row of activations when it runs); received null."],
    ['static activation scales', (c) => { c.config_groups.group_0['input_activations']!['dynamic'] = false; }, 'input_activations'],
    ['no config group', (c) => { (c as Record<string, unknown>)['config_groups'] = {}; }, "'quantization_config.config_groups' must be an object of one or more quantization schemes; received {}."],
  ])('refuses %s, naming the field', (_, change, message) => {
    const config = block();
    change(config);
    const error = thrown(() => parseInt8QuantizationConfig(config));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toContain(message);
    expect(error.message).toMatch(/^parseInt8QuantizationConfig: /);
  });
  it('refuses an ignore list that is no list of module names', () => {
    for (const ignore of [null, 'lm_head', {}, ['a', , 'b'], [1]]) { // eslint-disable-line no-sparse-arrays
      const error = thrown(() => int8QuantizationConfig(ignore as never));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^int8QuantizationConfig: 'ignore' must be a list of module names left in float32/);
    }
  });
  it('names quantization_config itself when it is no JSON object', () => {
    expect(thrown(() => parseInt8QuantizationConfig('x')).message).toMatch(/^parseInt8QuantizationConfig: 'quantization_config' must be a JSON object; received /);
  });
});
