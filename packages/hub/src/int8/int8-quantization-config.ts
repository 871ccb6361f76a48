import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/** The quantization scheme of an int8 folder, as `compressed-tensors` writes it: int8 weights per output channel, int8 activations per token, computed at run time. */
const SCHEME = {
  targets: ['Linear'],
  weights: { num_bits: 8, type: 'int', symmetric: true, strategy: 'channel', dynamic: false, group_size: null },
  input_activations: { num_bits: 8, type: 'int', symmetric: true, strategy: 'token', dynamic: true, group_size: null },
  output_activations: null,
} as const;

/** A config value as its JSON, bounded (describeValue says only "Object" of an object). */
const shown = (value: unknown): string => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 160 ? `${json.slice(0, 160)}…` : json;
};

/**
 * The `quantization_config` block of an int8 folder's `config.json`, in the layout of the
 * `compressed-tensors` library (what vLLM and transformers read): method `compressed-tensors`,
 * format `int-quantized`, one config group targeting `Linear` layers with symmetric int8 weights
 * per output channel (`strategy: "channel"`) and dynamic symmetric int8 activations per token —
 * what `Int8Linear` computes. `ignore` names the Linear modules left float32 (heads).
 *
 * @example
 * config.quantization_config = int8QuantizationConfig(['cls.predictions.transform.dense']);
 */
export function int8QuantizationConfig(ignore: readonly string[] = []): Record<string, unknown> {
  if (!Array.isArray(ignore) || !Array.from(ignore as unknown[]).every((name) => typeof name === 'string')) { // Array.from: a hole reads as undefined, refused
    throw new InvalidArgumentError({ caller: 'int8QuantizationConfig', argument: 'ignore', expected: "a list of module names left in float32 (such as ['lm_head'])", received: describeValue(ignore) });
  }
  return {
    quant_method: 'compressed-tensors',
    format: 'int-quantized',
    quantization_status: 'compressed',
    config_groups: { group_0: SCHEME },
    ignore: [...ignore],
    kv_cache_scheme: null,
  };
}

/**
 * Reads `config.json`'s `quantization_config`: `true` for a `compressed-tensors` int8 folder attnkit
 * loads (see {@link int8QuantizationConfig}: int8 weights per output channel, dynamic int8
 * activations per token, stored compressed), `false` when there is none or it names another
 * method (whose tensors the loader then judges). A `compressed-tensors` config of another scheme —
 * another bit width, grouped or per-tensor weights, static or no activation quantization, sparsity —
 * is an `InvalidArgumentError` naming the field.
 *
 * @example
 * parseInt8QuantizationConfig(JSON.parse(configText).quantization_config); // true for a folder saveInt8Folder wrote
 */
export function parseInt8QuantizationConfig(value: unknown): boolean {
  const caller = 'parseInt8QuantizationConfig';
  if (value === undefined || value === null) return false;
  const fail = (argument: string, expected: string, received: unknown): never => {
    throw new InvalidArgumentError({ caller, argument: argument === '' ? 'quantization_config' : `quantization_config.${argument}`, expected, received: shown(received), hint: 'attnkit loads compressed-tensors int8 folders with channel-wise weights and dynamic per-token activations (W8A8), as saveInt8Folder writes them.' });
  };
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (typeof value !== 'object' || Array.isArray(value) || (proto !== Object.prototype && proto !== null)) fail('', 'a JSON object', value); // what JSON.parse gives
  const config = value as Record<string, unknown>;
  if (config['quant_method'] !== 'compressed-tensors') return false;
  if (config['format'] !== 'int-quantized' && config['format'] !== 'naive-quantized') fail('format', '"int-quantized"', config['format']);
  if (config['quantization_status'] !== undefined && config['quantization_status'] !== 'compressed') fail('quantization_status', '"compressed" (int8 values stored, not float ones)', config['quantization_status']);
  if (config['sparsity_config'] !== undefined && config['sparsity_config'] !== null && Object.keys(config['sparsity_config'] as object).length > 0) fail('sparsity_config', 'null (dense weights)', config['sparsity_config']);
  const groups = config['config_groups'];
  if (typeof groups !== 'object' || groups === null || Array.isArray(groups) || Object.keys(groups).length === 0) fail('config_groups', 'an object of one or more quantization schemes', groups);
  for (const [name, group] of Object.entries(groups as Record<string, unknown>)) {
    const { weights, input_activations: inputs, output_activations: outputs } = (group ?? {}) as Record<string, unknown>;
    const matches = (args: unknown, want: Readonly<Record<string, unknown>>, keys: readonly string[]) => typeof args === 'object' && args !== null && keys.every((key) => (args as Record<string, unknown>)[key] === want[key]);
    if (!matches(weights, SCHEME.weights, ['num_bits', 'type', 'symmetric', 'strategy'])) fail(`config_groups.${name}.weights`, '{ num_bits: 8, type: "int", symmetric: true, strategy: "channel" }', weights);
    const weightArgs = weights as Record<string, unknown>;
    if (weightArgs['dynamic'] === true || (weightArgs['group_size'] ?? null) !== null) fail(`config_groups.${name}.weights`, 'static weights without groups (dynamic: false, group_size: null)', weights);
    if (!matches(inputs, SCHEME.input_activations, ['num_bits', 'type', 'symmetric', 'strategy', 'dynamic'])) fail(`config_groups.${name}.input_activations`, '{ num_bits: 8, type: "int", symmetric: true, strategy: "token", dynamic: true } (Int8Linear quantizes each row of activations when it runs)', inputs);
    if (outputs !== undefined && outputs !== null) fail(`config_groups.${name}.output_activations`, 'null', outputs);
  }
  return true;
}
