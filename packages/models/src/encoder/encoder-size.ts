import { ResourceLimitError, InvalidArgumentError, checkInteger, checkObject } from '@attnkit/errors';

/** The largest encoder attnkit builds: 2³⁰ float32 parameters (4 GiB), the whole wasm32 heap. */
export const MAX_ENCODER_PARAMETERS = 2 ** 30;
/** The most layers attnkit builds (published encoders have at most 48). */
export const MAX_ENCODER_LAYERS = 1024;

/** The sizes {@link checkEncoderSize} reads (an `EncoderConfig` has them all). */
export interface EncoderSizes {
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly embeddingSize?: number;
  readonly numHiddenLayers: number;
  readonly intermediateSize: number;
  readonly maxPositionEmbeddings: number;
  readonly typeVocabSize?: number;
}

/**
 * An upper bound of an encoder's parameter count from its sizes: embeddings (tokens, positions,
 * token types), per layer the four attention projections, the feed-forward pair and the norms,
 * and a pooler. Shapes: E = `embeddingSize` (default H), H = `hiddenSize`, I = `intermediateSize`.
 *
 * @example
 * encoderParameterCount({ vocabSize: 30522, hiddenSize: 768, numHiddenLayers: 12, intermediateSize: 3072, maxPositionEmbeddings: 512, typeVocabSize: 2 }); // ≈ 1.1e8
 */
export function encoderParameterCount(sizes: EncoderSizes): number {
  return parameterCount(sizes, 'encoderParameterCount');
}

/** {@link encoderParameterCount}, its errors naming `caller`. */
function parameterCount(sizes: EncoderSizes, caller: string): number {
  checkObject(sizes, { caller, argument: 'sizes', expected: 'an encoder config { vocabSize, hiddenSize, numHiddenLayers, intermediateSize, maxPositionEmbeddings }' });
  const size = (argument: keyof EncoderSizes, min = 1) => checkInteger(sizes[argument], { caller, argument, min });
  const [vocabSize, h, numHiddenLayers, i, maxPositionEmbeddings] = [size('vocabSize'), size('hiddenSize'), size('numHiddenLayers'), size('intermediateSize'), size('maxPositionEmbeddings')];
  const e = sizes.embeddingSize === undefined ? h : size('embeddingSize');
  const types = sizes.typeVocabSize === undefined ? 0 : size('typeVocabSize', 0);
  const embeddings = (vocabSize + maxPositionEmbeddings + types) * e + 2 * e + (e === h ? 0 : e * h + h);
  const layer = 4 * h * h + 4 * h + 2 * h * i + i + h + 4 * h;
  return embeddings + numHiddenLayers * layer + h * h + h;
}

/**
 * Refuses, from the config alone and before anything is allocated, an encoder larger than attnkit
 * builds: more than {@link MAX_ENCODER_LAYERS} layers, or more than {@link MAX_ENCODER_PARAMETERS}
 * parameters (4 GiB of float32). A `config.json` that claims a billion-token vocabulary or a
 * million layers is a typed error, not an allocation that takes the process down.
 *
 * @example
 * checkEncoderSize(parseEncoderConfig(json), 'loadEncoder');
 */
export function checkEncoderSize(sizes: EncoderSizes, caller = 'checkEncoderSize'): void {
  caller = typeof caller === 'string' ? caller : 'checkEncoderSize'; // a caller only names the function in messages
  const layers = checkObject(sizes, { caller, argument: 'config', expected: 'an encoder config' }).numHiddenLayers;
  if (typeof layers === 'number' && layers > MAX_ENCODER_LAYERS) { // anything else is encoderParameterCount's to refuse (a tensor compared here would be read)
    throw new InvalidArgumentError({ caller, argument: 'num_hidden_layers', expected: `at most ${MAX_ENCODER_LAYERS} layers`, received: String(layers) });
  }
  const parameters = parameterCount(sizes, caller);
  if (!(parameters <= MAX_ENCODER_PARAMETERS)) {
    throw new ResourceLimitError({
      caller,
      what: `the ${parameters.toExponential(2)} float32 parameters this config describes`,
      backend: 'any backend',
      bytes: parameters * 4,
      limit: MAX_ENCODER_PARAMETERS * 4,
      rule: 'attnkit builds encoders of at most 2³⁰ parameters, the whole wasm32 heap',
      hint: 'Check vocab_size, hidden_size, intermediate_size, max_position_embeddings and num_hidden_layers in config.json.',
    });
  }
}
