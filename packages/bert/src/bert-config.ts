import { InvalidArgumentError } from '@attnkit/errors';
import { ACTIVATIONS } from '@attnkit/nn';

/** A BERT configuration, read from a Hugging Face `config.json` (camelCase here). */
export interface BertConfig {
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly numHiddenLayers: number;
  readonly numAttentionHeads: number;
  readonly intermediateSize: number;
  readonly maxPositionEmbeddings: number;
  readonly typeVocabSize: number;
  readonly layerNormEps: number;
  readonly hiddenDropoutProb: number;
  readonly attentionProbsDropoutProb: number;
  readonly padTokenId: number;
  /** The feed-forward activation, a Hugging Face `hidden_act` name (`'gelu'`, `'gelu_new'`, `'relu'`, ...). */
  readonly hiddenAct: string;
  /** Std of the normal initialisation of a model built without weights (default 0.02). */
  readonly initializerRange: number;
}

const INTEGERS = {
  vocab_size: 'vocabSize',
  hidden_size: 'hiddenSize',
  num_hidden_layers: 'numHiddenLayers',
  num_attention_heads: 'numAttentionHeads',
  intermediate_size: 'intermediateSize',
  max_position_embeddings: 'maxPositionEmbeddings',
  type_vocab_size: 'typeVocabSize',
} as const;

function fail(key: string, expected: string, received: unknown, hint?: string): never {
  throw new InvalidArgumentError({ caller: 'parseBertConfig', argument: key, expected, received: JSON.stringify(received) ?? String(received), ...(hint === undefined ? {} : { hint }) });
}

/**
 * Validates a Hugging Face BERT `config.json` (already parsed) and returns the fields attnkit
 * uses. Settings attnkit does not implement (an unknown `hidden_act`, relative position embeddings,
 * a decoder) are errors, never silently ignored.
 *
 * @example
 * const config = parseBertConfig(JSON.parse(await readFile('model/config.json', 'utf8')));
 */
export function parseBertConfig(json: unknown): BertConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('config', 'a JSON object (config.json)', json);
  const raw = new Map(Object.entries(json)); // a Map: keys such as "__proto__" stay plain keys
  const out: Record<string, number> = {};
  for (const [key, name] of Object.entries(INTEGERS)) {
    const value = raw.get(key);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(key, 'a positive integer', value);
    out[name] = value;
  }
  if ((out['hiddenSize'] as number) % (out['numAttentionHeads'] as number) !== 0) {
    fail('hidden_size', `divisible by num_attention_heads = ${out['numAttentionHeads']}`, out['hiddenSize']);
  }
  const act = raw.get('hidden_act') ?? 'gelu';
  if (typeof act !== 'string' || !Object.hasOwn(ACTIVATIONS, act)) fail('hidden_act', `one of ${Object.keys(ACTIVATIONS).map((a) => `"${a}"`).join(', ')}`, act);
  const range = raw.get('initializer_range') ?? 0.02;
  if (typeof range !== 'number' || !(range > 0 && range < 10)) fail('initializer_range', 'a number in (0, 10)', range);
  const positions = raw.get('position_embedding_type') ?? 'absolute';
  if (positions !== 'absolute') fail('position_embedding_type', '"absolute" (relative position embeddings are not implemented)', positions);
  if (raw.get('is_decoder') === true || raw.get('add_cross_attention') === true) fail('is_decoder', 'false: attnkit implements the encoder', true);
  const modelType = raw.get('model_type');
  if (modelType !== undefined && modelType !== 'bert') fail('model_type', '"bert"', modelType, 'Other architectures need their own model file.');
  const eps = raw.get('layer_norm_eps') ?? 1e-12;
  if (typeof eps !== 'number' || !(eps > 0 && eps < 1)) fail('layer_norm_eps', 'a number in (0, 1)', eps);
  const probability = (key: string): number => {
    const value = raw.get(key) ?? 0.1;
    if (typeof value !== 'number' || !(value >= 0 && value < 1)) fail(key, 'a probability in [0, 1)', value);
    return value;
  };
  const pad = raw.get('pad_token_id') ?? 0;
  if (typeof pad !== 'number' || !Number.isInteger(pad) || pad < 0 || pad >= (out['vocabSize'] as number)) fail('pad_token_id', `an id in [0, vocab_size = ${out['vocabSize']})`, pad);
  return {
    ...(out as Pick<BertConfig, (typeof INTEGERS)[keyof typeof INTEGERS]>),
    layerNormEps: eps,
    hiddenDropoutProb: probability('hidden_dropout_prob'),
    attentionProbsDropoutProb: probability('attention_probs_dropout_prob'),
    padTokenId: pad,
    hiddenAct: act,
    initializerRange: range,
  };
}
