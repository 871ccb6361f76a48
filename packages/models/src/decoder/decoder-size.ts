import { InvalidArgumentError, ResourceLimitError, checkInteger, checkObject } from '@attnkit/errors';
import type { DecoderConfig } from './decoder-config.js';

/** The largest decoder attnkit builds: 2³¹ float32 parameters (8 GiB; the wasm backend's heap holds 4 GiB of them). */
export const MAX_DECODER_PARAMETERS = 2 ** 31;
/** The most layers attnkit builds (published decoders have at most a few hundred). */
export const MAX_DECODER_LAYERS = 1024;

/**
 * A decoder's parameter count from its config: token embeddings (and GPT-2's position table), per
 * layer the attention projections with their biases, the feed-forward (gated: three matrices; GPT-2:
 * two) and the norms, the final norm, and an untied head. Shapes: E = `hiddenSize`, H·D query width,
 * Hkv·D key/value width, I = `intermediateSize`, V = `vocabSize`.
 *
 * @example
 * decoderParameterCount(parseDecoderConfig(json)); // SmolLM2-135M: 134 515 008
 */
export function decoderParameterCount(config: DecoderConfig): number {
  const caller = 'decoderParameterCount';
  const c = checkObject(config, { caller, argument: 'config', expected: 'a parsed decoder config (parseDecoderConfig)' });
  const size = (argument: keyof DecoderConfig) => checkInteger(c[argument], { caller, argument: `config.${argument}`, min: 1 });
  const [e, v, i, heads, kvHeads, d] = [size('hiddenSize'), size('vocabSize'), size('intermediateSize'), size('numAttentionHeads'), size('numKeyValueHeads'), size('headDim')];
  const [q, kv] = [heads * d, kvHeads * d];
  const gpt2 = c.rotary === undefined; // learned positions, LayerNorm (weight and bias), two-matrix MLP with biases
  const embeddings = v * e + (gpt2 ? c.maxPositionEmbeddings * e : 0);
  const attention = e * (q + 2 * kv) + q * e + (c.attentionBias ? q + 2 * kv : 0) + (c.outputBias ? e : 0) + (c.queryKeyNorm ? 2 * c.headDim : 0);
  const feedForward = gpt2 ? 2 * e * i + i + e : 3 * e * i + (c.mlpBias ? 2 * i + e : 0);
  const norms = gpt2 ? 4 * e : 2 * e;
  return embeddings + size('numHiddenLayers') * (attention + feedForward + norms) + (gpt2 ? 2 * e : e) + (c.tieWordEmbeddings ? 0 : v * e);
}

/**
 * Refuses, from the config alone and before anything is allocated, a decoder larger than attnkit
 * builds: more than {@link MAX_DECODER_LAYERS} layers (`InvalidArgumentError`) or more than
 * {@link MAX_DECODER_PARAMETERS} parameters (`ResourceLimitError`). A config.json claiming a
 * billion-token vocabulary is a typed error, not an allocation that takes the process down.
 *
 * @example
 * checkDecoderSize(config, 'parseLlamaConfig');
 */
export function checkDecoderSize(config: DecoderConfig, caller = 'checkDecoderSize'): void {
  const layers = checkObject(config, { caller, argument: 'config', expected: 'a parsed decoder config' }).numHiddenLayers;
  if (layers > MAX_DECODER_LAYERS) throw new InvalidArgumentError({ caller, argument: 'num_hidden_layers', expected: `at most ${MAX_DECODER_LAYERS} layers`, received: String(layers) });
  const parameters = decoderParameterCount(config);
  if (!(parameters <= MAX_DECODER_PARAMETERS)) {
    throw new ResourceLimitError({
      caller,
      what: `the ${parameters.toExponential(2)} float32 parameters this config describes`,
      backend: 'any backend',
      bytes: parameters * 4,
      limit: MAX_DECODER_PARAMETERS * 4,
      rule: 'attnkit builds decoders of at most 2³¹ parameters (8 GiB of float32; the wasm backend holds at most 4 GiB)',
      hint: 'Check vocab_size, hidden_size, intermediate_size and num_hidden_layers in config.json.',
    });
  }
}
