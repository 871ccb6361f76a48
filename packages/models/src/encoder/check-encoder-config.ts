import { checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import { POSITION_EMBEDDING_TYPES, type EncoderConfig } from './encoder-config.js';

const SIZES = ['vocabSize', 'hiddenSize', 'numHiddenLayers', 'numAttentionHeads', 'intermediateSize', 'maxPositionEmbeddings', 'embeddingSize', 'maxSequenceLength'] as const;
const COUNTS = ['typeVocabSize', 'padTokenId', 'positionOffset', 'relativeAttentionNumBuckets'] as const;

/**
 * Checks a parsed encoder config as a model class reads it — the config a parser gave, or one a
 * caller built or changed by hand (`{ ...config, numHiddenLayers: 2 }`): sizes positive integers
 * (heads dividing the width), counts and ids non-negative integers (the padding id inside the
 * vocabulary, the longest sequence within the position table), `layerNormEps` > 0, dropout
 * probabilities in [0, 1), `initializerRange` ≥ 0, `hiddenAct` a name, `positionEmbeddingType` one
 * of {@link POSITION_EMBEDDING_TYPES}, `rotaryValue` a boolean. Each field is named as
 * `config.<field>`; nothing is allocated.
 *
 * @example
 * checkEncoderConfig({ ...parseBertConfig(json), numHiddenLayers: 2 }, 'BertModel');
 */
export function checkEncoderConfig(config: unknown, caller: string): EncoderConfig {
  const c = checkObject(config, { caller, argument: 'config', expected: 'a parsed encoder config (parseEncoderConfig)' }) as Record<keyof EncoderConfig, unknown>;
  const fail = (field: string, expected: string): never => {
    throw new InvalidArgumentError({ caller, argument: `config.${field}`, expected, received: describeValue(c[field as keyof EncoderConfig]), hint: 'parseEncoderConfig reads a config from config.json.' });
  };
  const integer = (value: unknown, min: number) => typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
  for (const field of SIZES) if (!integer(c[field], 1)) fail(field, 'a positive integer');
  for (const field of COUNTS) if (!integer(c[field], 0)) fail(field, 'a non-negative integer');
  const [vocab, hidden, heads, positions] = [c.vocabSize, c.hiddenSize, c.numAttentionHeads, c.maxPositionEmbeddings] as number[];
  if ((hidden as number) % (heads as number) !== 0) fail('numAttentionHeads', `a divisor of hiddenSize = ${hidden}`);
  if ((c.padTokenId as number) >= (vocab as number)) fail('padTokenId', `an id in [0, vocabSize = ${vocab})`);
  if ((c.positionOffset as number) >= (positions as number)) fail('positionOffset', `less than maxPositionEmbeddings = ${positions}`);
  if ((c.maxSequenceLength as number) > (positions as number) - (c.positionEmbeddingType === 'absolute' ? (c.positionOffset as number) : 0)) fail('maxSequenceLength', 'within the position table (maxPositionEmbeddings, less positionOffset for absolute positions)');
  const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
  if (!finite(c.layerNormEps) || !((c.layerNormEps as number) > 0)) fail('layerNormEps', 'a finite number > 0');
  for (const field of ['hiddenDropoutProb', 'attentionProbsDropoutProb'] as const) if (!finite(c[field]) || (c[field] as number) < 0 || (c[field] as number) >= 1) fail(field, 'a probability in [0, 1)');
  if (!finite(c.initializerRange) || (c.initializerRange as number) < 0) fail('initializerRange', 'a finite number ≥ 0');
  if (typeof c.hiddenAct !== 'string') fail('hiddenAct', "an activation name ('gelu', 'relu', ...)");
  if (!(POSITION_EMBEDDING_TYPES as readonly unknown[]).includes(c.positionEmbeddingType)) fail('positionEmbeddingType', POSITION_EMBEDDING_TYPES.map((t) => `'${t}'`).join(', '));
  if (typeof c.rotaryValue !== 'boolean') fail('rotaryValue', 'true or false');
  return config as EncoderConfig;
}
