import { readFileSync } from 'node:fs';
import { ones, tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { modelFiles } from '@attnkit/hub';
import { Embedding } from '@attnkit/nn';
import {
  loadEncoder, loadSequenceClassifier, BertEmbeddings, BertForMaskedLM, BertForSequenceClassification, BertLMPredictionHead, BertLayer, BertModel, BertResidualOutput, BertSelfAttention, ClassificationHead,
  DistilBertEmbeddings, DistilBertForSequenceClassification, DistilBertModel, ElectraForSequenceClassification, ElectraModel, MPNetForSequenceClassification, MPNetLayer, MPNetModel,
  MPNetSelfAttention, ModernBertAttention, ModernBertEmbeddings, ModernBertEncoderLayer, ModernBertForMaskedLM, ModernBertForSequenceClassification, ModernBertMLP, ModernBertModel,
  ModernBertPredictionHead, ModernBertTiedDecoder, RoFormerEmbeddings, RoFormerForSequenceClassification, RoFormerLayer, RoFormerModel, RoFormerSelfAttention, RoFormerSinusoidalPositions,
  RobertaEmbeddings, RobertaForSequenceClassification, RobertaModel, TransformerBlock, checkEncoderSize, checkNotRemoteCode, checkpointKeys, encoderParameterCount, encoderStateDict,
  int8EncoderFiles, loadBert, loadEncoderFolder, loadModernBertForMaskedLM, mpnetPositionBias, parseBertConfig, parseDistilBertConfig, parseElectraConfig, parseEncoderConfig, parseMPNetConfig,
  parseModernBertConfig, parseRoFormerConfig, parseRobertaConfig, parseSequenceClassificationConfig, readEncoderFolder, readModelFolder, relativeKeyScores, relativePositionBuckets,
  roformerSinusoidalTable, seededRandom, type EncoderConfig, type ModernBertConfig, type SequenceClassificationConfig,
} from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import {
  CrossEncoder, Dense, Pooling, SentenceEncoder, activationOfTorchPath, loadSentenceEncoder, applyCrossEncoderActivation, isDecoderModel, l2Normalize, parseDenseConfig, parsePoolingConfig, poolModes, quantizationRanges, quantizeEmbeddings,
  readCrossEncoderFolder, readSentenceFolder, similarity,
} from '@attnkit/sentence';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const FIXTURES = 'tooling/reference/fixtures/';
const BERT_FOLDER = repoPath(`${FIXTURES}families/bert/`); // hidden 32, 4 heads, vocab 520, 64 positions
const MODERNBERT_FOLDER = repoPath(`${FIXTURES}modernbert/mlm/`); // hidden 32, 4 heads (D 8), vocab 100
const SENTENCE_FOLDER = repoPath(`${FIXTURES}sentence/bert-cls/`);
const CROSS_FOLDER = repoPath(`${FIXTURES}rerank/cross-encoders/bert/`);
const json = (folder: string): Record<string, unknown> => JSON.parse(readFileSync(repoPath(`${FIXTURES}${folder}/config.json`), 'utf8')) as Record<string, unknown>;
const CONFIG_JSON = {
  bert: json('families/bert'), roberta: json('families/roberta'), distilbert: json('families/distilbert'), electra: json('families/electra'), mpnet: json('families/mpnet'),
  roformer: json('relative-roformer/roformer'), modernbert: json('modernbert/mlm'),
};
const BERT: EncoderConfig = parseBertConfig(CONFIG_JSON.bert);
const ROBERTA: EncoderConfig = parseRobertaConfig(CONFIG_JSON.roberta);
const DISTILBERT: EncoderConfig = parseDistilBertConfig(CONFIG_JSON.distilbert);
const ELECTRA: EncoderConfig = parseElectraConfig(CONFIG_JSON.electra);
const MPNET: EncoderConfig = parseMPNetConfig(CONFIG_JSON.mpnet);
const ROFORMER: EncoderConfig = parseRoFormerConfig(CONFIG_JSON.roformer); // hidden 32, 4 heads (D 8), vocab 99
const MODERNBERT: ModernBertConfig = parseModernBertConfig(CONFIG_JSON.modernbert);
const classifierConfig = (family: keyof typeof CONFIG_JSON): SequenceClassificationConfig => parseSequenceClassificationConfig({ ...CONFIG_JSON[family], num_labels: 2 });
const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';
const CALLER = "the caller only names the function in messages (one that is no string: the function's own name)";
/** Every hostile value at a `caller` argument: it only names the function in messages (a name that is no string is read as the function's own). */
const callerAccepted = (position: number): Record<string, string> => every(position, CALLER);

/** Disposes what a call gave back: a tensor, a list or record of them. */
function release(value: unknown): void {
  if (Array.isArray(value)) value.forEach(release);
  else if (value !== null && typeof value === 'object') {
    if (typeof (value as { dispose?: unknown }).dispose === 'function') (value as { dispose(): void }).dispose();
    else Object.values(value).forEach(release);
  }
}
/** A call in a tidy scope: the tensors it returns are disposed. */
function tidyCall(fn: () => unknown): void {
  tidy(() => { fn(); });
}
/** Builds a module (the call under test) and disposes it. */
function built(make: () => { dispose(): void }): void {
  make().dispose();
}
/** Runs `use` on a module built by `make` in a tidy scope (its outputs disposed), then disposes the module. */
function used<M extends { dispose(): void }>(make: () => M, use: (module: M) => unknown): void {
  const module = make();
  try { tidy(() => { release(use(module)); }); } finally { module.dispose(); }
}
const f = (shape: number[]) => zeros(shape);
const ids = (rows: number[][]) => tensor(rows, [rows.length, rows[0]!.length], 'int32');
const padding = () => ones([1, 1, 1, 3], 'bool'); // [B, 1, 1, T]: every key
const rotary = (d: number) => ({ cos: ones([1, 3, d]), sin: zeros([1, 3, d]) }); // [B, T, D]: positions turned by 0
const LAYER_KEYS = ['outputAttentions'];
const INPUT_KEYS = ['inputIds', 'attentionMask', 'tokenTypeIds', 'outputAttentions', 'outputHiddenStates'];
const inputs = () => ({ inputIds: [[2, 5, 3]], attentionMask: [[1, 1, 1]] });
const LOAD_KEYS = ['onProgress', 'onNotice', 'signal', 'checkFinite', 'backend', 'fetch', 'hub', 'quantize'];
const NO_HUB = 'no Hub options: the HF_* variables and defaults';
/** Stands for the BERT folder read in the call (a folder is read asynchronously; arguments are made synchronously). */
const THE_FOLDER = Symbol('the BERT folder, read');
/** Stands for a BERT model built in the call. */
const THE_MODEL = Symbol('a BERT model');
const IDS = 'int32 ids [1, 3] below the vocabulary are valid input';
const every = (position: number, reason: string): Record<string, string> => Object.fromEntries(['undefined', 'null', 'NaN', '{}', '"x"', 'a sparse array [1, , 1]', 'a disposed tensor', 'an int32 tensor', 'a rank-0 float tensor'].map((label) => [`${position}:${label}`, reason]));

const BERT_KEYS = ['vocab_size', 'hidden_size', 'num_hidden_layers', 'num_attention_heads', 'intermediate_size', 'max_position_embeddings', 'type_vocab_size', 'layer_norm_eps', 'hidden_dropout_prob', 'pad_token_id', 'hidden_act', 'position_embedding_type', 'initializer_range'];
/** config.json keys given each hostile value (the sizes, norms, dropouts, ids and names every family reads). */
const CONFIG_KEYS: Record<keyof typeof CONFIG_JSON, readonly string[]> = {
  bert: BERT_KEYS, roberta: BERT_KEYS, electra: [...BERT_KEYS, 'embedding_size'], mpnet: [...BERT_KEYS, 'relative_attention_num_buckets'], roformer: [...BERT_KEYS, 'embedding_size', 'rotary_value'],
  distilbert: ['vocab_size', 'dim', 'n_layers', 'n_heads', 'hidden_dim', 'max_position_embeddings', 'dropout', 'attention_dropout', 'activation', 'pad_token_id', 'sinusoidal_pos_embds', 'initializer_range'],
  modernbert: ['vocab_size', 'hidden_size', 'num_hidden_layers', 'num_attention_heads', 'intermediate_size', 'max_position_embeddings', 'norm_eps', 'hidden_activation', 'pad_token_id', 'local_attention', 'global_attn_every_n_layers', 'layer_types', 'rope_parameters', 'classifier_pooling', 'decoder_bias', 'norm_bias'],
};
const CLASSIFIER_KEYS = ['num_labels', 'id2label', 'label2id', 'problem_type', 'classifier_dropout'];
const NULL_DEFAULT = 'a null config.json value reads as the key left out: its default (documented)';
const nullDefaults = (...keys: string[]): Record<string, string> => Object.fromEntries(keys.map((key) => [`${key}:null`, NULL_DEFAULT]));
const notRead = (key: string, reason: string): Record<string, string> => Object.fromEntries(['null', 'NaN', '"x"', '{}', '-1', 'a disposed tensor'].map((label) => [`${key}:${label}`, reason]));
const BERT_NULLS = ['type_vocab_size', 'position_embedding_type', 'layer_norm_eps', 'hidden_dropout_prob', 'hidden_act', 'pad_token_id', 'initializer_range'];
/** What each family's parser takes besides a refusal: null values with a default, and keys it documents as not read. */
const CONFIG_ACCEPTED: Record<keyof typeof CONFIG_JSON, Record<string, string>> = {
  bert: nullDefaults(...BERT_NULLS), roberta: nullDefaults(...BERT_NULLS), electra: nullDefaults(...BERT_NULLS, 'embedding_size'),
  mpnet: { ...nullDefaults(...BERT_NULLS, 'relative_attention_num_buckets'), ...notRead('type_vocab_size', 'not read: MPNet has no token types (documented)') },
  roformer: { ...nullDefaults(...BERT_NULLS, 'embedding_size', 'rotary_value'), ...notRead('position_embedding_type', "not read: RoFormer's positions are rotary whatever config.json says (documented)") },
  distilbert: { ...nullDefaults('dropout', 'attention_dropout', 'activation', 'pad_token_id', 'initializer_range'), ...notRead('sinusoidal_pos_embds', 'not read: the position table is in the checkpoint either way (transformers writes the sinusoidal values into it)') },
  modernbert: {
    ...nullDefaults('norm_eps', 'norm_bias', 'max_position_embeddings', 'local_attention', 'layer_types', 'hidden_activation', 'decoder_bias', 'classifier_pooling', 'rope_parameters'),
    ...notRead('global_attn_every_n_layers', 'not read when layer_types is given (documented: layer_types, else every n-th layer global)'),
    'rope_parameters:{}': 'no rope parameters: each layer type its default theta (documented)',
  },
};
const CLASSIFIER_ACCEPTED = { ...nullDefaults('num_labels', 'id2label', 'label2id', 'problem_type', 'classifier_dropout'), 'label2id:{}': 'an empty label2id (kept as given, as transformers does; logits are read by index)' };

/** The encoder families' configs, parsers and position helpers: plain functions of numbers and JSON. */
const HELPER_CALLS: readonly ValidCall[] = [
  ...([
    ['parseEncoderConfig', parseEncoderConfig, 'bert'], ['parseBertConfig', parseBertConfig, 'bert'], ['parseRobertaConfig', parseRobertaConfig, 'roberta'],
    ['parseDistilBertConfig', parseDistilBertConfig, 'distilbert'], ['parseElectraConfig', parseElectraConfig, 'electra'], ['parseMPNetConfig', parseMPNetConfig, 'mpnet'],
    ['parseRoFormerConfig', parseRoFormerConfig, 'roformer'], ['parseModernBertConfig', parseModernBertConfig, 'modernbert'], ['parseSequenceClassificationConfig', parseSequenceClassificationConfig, 'bert'],
  ] as const).map(([name, parse, family]): ValidCall => ({
    name: `models.${name}`, args: () => [{ ...CONFIG_JSON[family] }, 'catalogue'], call: ([j, c]) => (parse as (json: unknown, caller?: string) => unknown)(j, c as string), optional: [1],
    options: { index: 0, keys: [...CONFIG_KEYS[family], ...(name === 'parseSequenceClassificationConfig' ? CLASSIFIER_KEYS : [])] }, accepted: { ...callerAccepted(1), ...CONFIG_ACCEPTED[family], ...(name === 'parseSequenceClassificationConfig' ? CLASSIFIER_ACCEPTED : {}) },
  })),
  { name: 'models.checkNotRemoteCode', args: () => [{ ...CONFIG_JSON.bert }, 'catalogue'], call: ([j, c]) => checkNotRemoteCode(j, c as string), optional: [1], accepted: { ...callerAccepted(1), '0:{}': 'a config without model_type or auto_map needs no code of its own' } },
  { name: 'models.encoderParameterCount', args: () => [{ ...BERT }], call: ([s]) => encoderParameterCount(s as never), options: { index: 0, keys: ['vocabSize', 'hiddenSize', 'embeddingSize', 'numHiddenLayers', 'intermediateSize', 'maxPositionEmbeddings', 'typeVocabSize'] } },
  { name: 'models.checkEncoderSize', args: () => [{ ...BERT }, 'catalogue'], call: ([s, c]) => checkEncoderSize(s as never, c as string), optional: [1], accepted: callerAccepted(1),
    options: { index: 0, keys: ['vocabSize', 'hiddenSize', 'embeddingSize', 'numHiddenLayers', 'intermediateSize', 'maxPositionEmbeddings', 'typeVocabSize'] } },
  { name: 'models.checkpointKeys', args: () => [['embeddings.word_embeddings.weight', 'encoder.layer.0.output.LayerNorm.gamma'], 'bert'], call: ([n, t]) => checkpointKeys(n as string[], t as never), optional: [1] },
  { name: 'models.relativePositionBuckets', args: () => [4, 32, 128], call: ([l, n, m]) => relativePositionBuckets(l as number, n as number, m as number), optional: [2] },
  { name: 'models.roformerSinusoidalTable', args: () => [8, 4], call: ([m, d]) => roformerSinusoidalTable(m as number, d as number) },
  { name: 'models.seededRandom', args: () => [1], call: ([s]) => seededRandom(s as number)(), accepted: { '0:-1': SEED } },
  { name: 'models.relativeKeyScores', args: () => [f([1, 4, 3, 8]), f([1, 4, 3, 8]), f([127, 8]), 'relative_key'], call: ([q, k, t, y]) => tidyCall(() => relativeKeyScores(q as Tensor, k as Tensor, t as Tensor, y as never)) },
  { name: 'models.mpnetPositionBias', args: () => [3, MPNET], call: ([l, c]) => used(() => new Embedding(MPNET.relativeAttentionNumBuckets, MPNET.numAttentionHeads, { seed: 1 }), (table) => mpnetPositionBias(table, l as number, c as EncoderConfig)) },
  { name: 'models.RoFormerSinusoidalPositions', args: () => [8, 4], call: ([m, d]) => built(() => new RoFormerSinusoidalPositions(m as number, d as number)) },
  { name: 'models.RoFormerSinusoidalPositions.rotaryTables', args: () => [3], call: ([l]) => used(() => new RoFormerSinusoidalPositions(8, 4), (p) => p.rotaryTables(l as number)) },
];

/** Each encoder block's constructor (a parsed config) and forward (tensors as the model passes them). */
const BLOCK_CALLS: readonly ValidCall[] = [
  { name: 'models.BertEmbeddings', args: () => [BERT], call: ([c]) => built(() => new BertEmbeddings(c as EncoderConfig)) },
  { name: 'models.BertEmbeddings.forward', args: () => [ids([[2, 5, 3]]), ids([[0, 0, 1]])], call: ([i, t]) => used(() => new BertEmbeddings(BERT), (m) => m.forward(i as Tensor, t as Tensor)), optional: [1], accepted: { '0:an int32 tensor': IDS } },
  { name: 'models.RobertaEmbeddings', args: () => [ROBERTA], call: ([c]) => built(() => new RobertaEmbeddings(c as EncoderConfig)) },
  { name: 'models.RobertaEmbeddings.forward', args: () => [ids([[2, 5, 3]]), ids([[0, 0, 0]])], call: ([i, t]) => used(() => new RobertaEmbeddings(ROBERTA), (m) => m.forward(i as Tensor, t as Tensor)), optional: [1], accepted: { '0:an int32 tensor': IDS } },
  { name: 'models.BertSelfAttention', args: () => [BERT], call: ([c]) => built(() => new BertSelfAttention(c as EncoderConfig)) },
  { name: 'models.BertSelfAttention.forward', args: () => [f([1, 3, 32]), padding(), f([1, 4, 3, 3]), {}], call: ([h, m, b, o]) => used(() => new BertSelfAttention(BERT), (a) => a.forward(h as Tensor, m as Tensor, b as Tensor, o as never)),
    optional: [1, 2, 3], options: { index: 3, keys: LAYER_KEYS } },
  { name: 'models.BertResidualOutput', args: () => [BERT, 64], call: ([c, n]) => built(() => new BertResidualOutput(c as EncoderConfig, n as number)) },
  { name: 'models.BertResidualOutput.forward', args: () => [f([1, 3, 64]), f([1, 3, 32])], call: ([x, r]) => used(() => new BertResidualOutput(BERT, 64), (m) => m.forward(x as Tensor, r as Tensor)) },
  { name: 'models.BertLayer', args: () => [BERT], call: ([c]) => built(() => new BertLayer(c as EncoderConfig)) },
  { name: 'models.BertLayer.forward', args: () => [f([1, 3, 32]), padding(), f([1, 4, 3, 3]), {}], call: ([h, m, b, o]) => used(() => new BertLayer(BERT), (l) => l.forward(h as Tensor, m as Tensor, b as Tensor, o as never)),
    optional: [1, 2, 3], options: { index: 3, keys: LAYER_KEYS } },
  { name: 'models.BertLMPredictionHead', args: () => [BERT], call: ([c]) => built(() => new BertLMPredictionHead(c as EncoderConfig)) },
  { name: 'models.BertLMPredictionHead.forward', args: () => [f([1, 3, 32]), f([520, 32])], call: ([h, w]) => used(() => new BertLMPredictionHead(BERT), (m) => m.forward(h as Tensor, w as Tensor)) },
  { name: 'models.DistilBertEmbeddings', args: () => [DISTILBERT], call: ([c]) => built(() => new DistilBertEmbeddings(c as EncoderConfig)) },
  { name: 'models.DistilBertEmbeddings.forward', args: () => [ids([[2, 5, 3]])], call: ([i]) => used(() => new DistilBertEmbeddings(DISTILBERT), (m) => m.forward(i as Tensor)), accepted: { '0:an int32 tensor': IDS } },
  { name: 'models.TransformerBlock', args: () => [DISTILBERT], call: ([c]) => built(() => new TransformerBlock(c as EncoderConfig)) },
  { name: 'models.TransformerBlock.forward', args: () => [f([1, 3, 32]), padding(), undefined, {}], call: ([h, m, b, o]) => used(() => new TransformerBlock(DISTILBERT), (l) => l.forward(h as Tensor, m as Tensor, b as Tensor, o as never)),
    optional: [1, 2, 3], options: { index: 3, keys: LAYER_KEYS }, accepted: { '2:a rank-0 float tensor': 'a float32 score bias, which DistilBERT ignores (documented: it has none)' } },
  { name: 'models.MPNetSelfAttention', args: () => [MPNET], call: ([c]) => built(() => new MPNetSelfAttention(c as EncoderConfig)) },
  { name: 'models.MPNetSelfAttention.forward', args: () => [f([1, 3, 32]), padding(), f([1, 4, 3, 3]), {}], call: ([h, m, b, o]) => used(() => new MPNetSelfAttention(MPNET), (a) => a.forward(h as Tensor, m as Tensor, b as Tensor, o as never)),
    optional: [1, 2, 3], options: { index: 3, keys: LAYER_KEYS } },
  { name: 'models.MPNetLayer', args: () => [MPNET], call: ([c]) => built(() => new MPNetLayer(c as EncoderConfig)) },
  { name: 'models.MPNetLayer.forward', args: () => [f([1, 3, 32]), padding(), f([1, 4, 3, 3]), {}], call: ([h, m, b, o]) => used(() => new MPNetLayer(MPNET), (l) => l.forward(h as Tensor, m as Tensor, b as Tensor, o as never)),
    optional: [1, 2, 3], options: { index: 3, keys: LAYER_KEYS } },
  { name: 'models.RoFormerEmbeddings', args: () => [ROFORMER], call: ([c]) => built(() => new RoFormerEmbeddings(c as EncoderConfig)) },
  { name: 'models.RoFormerEmbeddings.forward', args: () => [ids([[2, 5, 3]]), ids([[0, 0, 1]])], call: ([i, t]) => used(() => new RoFormerEmbeddings(ROFORMER), (m) => m.forward(i as Tensor, t as Tensor)), optional: [1], accepted: { '0:an int32 tensor': IDS } },
  { name: 'models.RoFormerSelfAttention', args: () => [ROFORMER], call: ([c]) => built(() => new RoFormerSelfAttention(c as EncoderConfig)) },
  { name: 'models.RoFormerSelfAttention.forward', args: () => [f([1, 3, 32]), padding(), rotary(8), {}], call: ([h, m, r, o]) => used(() => new RoFormerSelfAttention(ROFORMER), (a) => a.forward(h as Tensor, m as Tensor, r as never, o as never)),
    optional: [1, 3], options: { index: 3, keys: LAYER_KEYS } },
  { name: 'models.RoFormerLayer', args: () => [ROFORMER], call: ([c]) => built(() => new RoFormerLayer(c as EncoderConfig)) },
  { name: 'models.RoFormerLayer.forward', args: () => [f([1, 3, 32]), padding(), rotary(8), {}], call: ([h, m, r, o]) => used(() => new RoFormerLayer(ROFORMER), (l) => l.forward(h as Tensor, m as Tensor, r as never, o as never)),
    optional: [1, 3], options: { index: 3, keys: LAYER_KEYS } },
  { name: 'models.ModernBertEmbeddings', args: () => [MODERNBERT], call: ([c]) => built(() => new ModernBertEmbeddings(c as ModernBertConfig)) },
  { name: 'models.ModernBertEmbeddings.forward', args: () => [ids([[2, 5, 3]])], call: ([i]) => used(() => new ModernBertEmbeddings(MODERNBERT), (m) => m.forward(i as Tensor)), accepted: { '0:an int32 tensor': IDS } },
  { name: 'models.ModernBertAttention', args: () => [MODERNBERT], call: ([c]) => built(() => new ModernBertAttention(c as ModernBertConfig)) },
  { name: 'models.ModernBertAttention.forward', args: () => [f([1, 3, 32]), { mask: padding(), ...rotary(8) }, {}], call: ([h, i, o]) => used(() => new ModernBertAttention(MODERNBERT), (a) => a.forward(h as Tensor, i as never, o as never)),
    optional: [2], options: { index: 1, keys: ['mask', 'cos', 'sin'] }, accepted: { '2:{}': 'no call options: the defaults' } },
  { name: 'models.ModernBertMLP', args: () => [MODERNBERT], call: ([c]) => built(() => new ModernBertMLP(c as ModernBertConfig)) },
  { name: 'models.ModernBertMLP.forward', args: () => [f([1, 3, 32])], call: ([h]) => used(() => new ModernBertMLP(MODERNBERT), (m) => m.forward(h as Tensor)) },
  { name: 'models.ModernBertEncoderLayer', args: () => [MODERNBERT, 1], call: ([c, i]) => built(() => new ModernBertEncoderLayer(c as ModernBertConfig, i as number)) },
  { name: 'models.ModernBertEncoderLayer.forward', args: () => [f([1, 3, 32]), { mask: padding(), ...rotary(8) }, {}], call: ([h, i, o]) => used(() => new ModernBertEncoderLayer(MODERNBERT, 0), (l) => l.forward(h as Tensor, i as never, o as never)),
    optional: [2], options: { index: 1, keys: ['mask', 'cos', 'sin'] }, accepted: { '2:{}': 'no call options: the defaults' } },
  { name: 'models.ModernBertPredictionHead', args: () => [MODERNBERT], call: ([c]) => built(() => new ModernBertPredictionHead(c as ModernBertConfig)) },
  { name: 'models.ModernBertPredictionHead.forward', args: () => [f([1, 3, 32])], call: ([h]) => used(() => new ModernBertPredictionHead(MODERNBERT), (m) => m.forward(h as Tensor)) },
  { name: 'models.ModernBertTiedDecoder', args: () => [MODERNBERT], call: ([c]) => built(() => new ModernBertTiedDecoder(c as ModernBertConfig)) },
  { name: 'models.ClassificationHead', args: () => [classifierConfig('bert'), 'tanh'], call: ([c, a]) => built(() => new ClassificationHead(c as SequenceClassificationConfig, a as string)) },
  { name: 'models.ClassificationHead.forward', args: () => [f([1, 3, 32])], call: ([h]) => used(() => new ClassificationHead(classifierConfig('bert'), 'tanh'), (m) => m.forward(h as Tensor)) },
];

const ENCODER_CONFIG_KEYS = ['modelType', 'vocabSize', 'hiddenSize', 'numHiddenLayers', 'numAttentionHeads', 'intermediateSize', 'maxPositionEmbeddings', 'typeVocabSize', 'layerNormEps', 'hiddenDropoutProb', 'attentionProbsDropoutProb', 'padTokenId', 'hiddenAct', 'initializerRange', 'embeddingSize', 'positionOffset', 'maxSequenceLength', 'relativeAttentionNumBuckets', 'positionEmbeddingType', 'rotaryValue'];
type Built = { dispose(): void; forward(inputs: never, options?: never): unknown };
type ModelClass = new (config: never, checkpoint?: never, options?: never) => Built;
/** A model class: its constructor (config, checkpoint, options) and its forward (the encoder inputs). */
function modelCalls(name: string, Model: ModelClass, config: () => unknown, optionKeys: readonly string[]): ValidCall[] {
  return [
    { name: `models.${name}`, args: () => [config(), undefined, { seed: 1 }], call: ([c, w, o]) => built(() => new Model(c as never, w as never, o as never)), optional: [1, 2],
      options: { index: 2, keys: optionKeys }, accepted: { 'seed:-1': SEED } },

    { name: `models.${name}.forward`, args: () => [inputs()], call: ([i]) => used(() => new Model(config() as never, undefined, { seed: 1 } as never), (m) => m.forward(i as never)), options: { index: 0, keys: INPUT_KEYS } },
  ];
}
/** A model class's config fields (a config built or changed by hand), each given each hostile value: only those option cases (the positions are `modelCalls`'). */
function configCalls(name: string, Model: ModelClass, config: () => unknown): ValidCall {
  return { name: `models.${name}`, args: () => [{ ...(config() as object) }, undefined, { seed: 1 }], call: ([c, w, o]) => built(() => new Model(c as never, w as never, o as never)), options: { index: 0, keys: ENCODER_CONFIG_KEYS } };
}
const CONFIG_CALLS: readonly ValidCall[] = [
  configCalls('BertModel', BertModel as never, () => BERT), configCalls('RobertaModel', RobertaModel as never, () => ROBERTA), configCalls('DistilBertModel', DistilBertModel as never, () => DISTILBERT),
  configCalls('ElectraModel', ElectraModel as never, () => ELECTRA), configCalls('MPNetModel', MPNetModel as never, () => MPNET), configCalls('RoFormerModel', RoFormerModel as never, () => ROFORMER),
  configCalls('ModernBertModel', ModernBertModel as never, () => MODERNBERT),
];
const MODEL_CALLS: readonly ValidCall[] = [
  ...modelCalls('BertModel', BertModel as never, () => BERT, ['seed']),
  ...modelCalls('RobertaModel', RobertaModel as never, () => ROBERTA, ['seed']),
  ...modelCalls('DistilBertModel', DistilBertModel as never, () => DISTILBERT, ['seed']),
  ...modelCalls('ElectraModel', ElectraModel as never, () => ELECTRA, ['seed']),
  ...modelCalls('MPNetModel', MPNetModel as never, () => MPNET, ['seed']),
  ...modelCalls('RoFormerModel', RoFormerModel as never, () => ROFORMER, ['seed']),
  ...modelCalls('ModernBertModel', ModernBertModel as never, () => MODERNBERT, ['seed']),
  ...modelCalls('ModernBertForMaskedLM', ModernBertForMaskedLM as never, () => MODERNBERT, ['seed']),
  ...modelCalls('BertForSequenceClassification', BertForSequenceClassification as never, () => classifierConfig('bert'), ['seed', 'newHead']),
  ...modelCalls('RobertaForSequenceClassification', RobertaForSequenceClassification as never, () => classifierConfig('roberta'), ['seed', 'newHead']),
  ...modelCalls('DistilBertForSequenceClassification', DistilBertForSequenceClassification as never, () => classifierConfig('distilbert'), ['seed', 'newHead']),
  ...modelCalls('ElectraForSequenceClassification', ElectraForSequenceClassification as never, () => classifierConfig('electra'), ['seed', 'newHead']),
  ...modelCalls('MPNetForSequenceClassification', MPNetForSequenceClassification as never, () => classifierConfig('mpnet'), ['seed', 'newHead']),
  ...modelCalls('RoFormerForSequenceClassification', RoFormerForSequenceClassification as never, () => classifierConfig('roformer'), ['seed', 'newHead']),
  ...modelCalls('ModernBertForSequenceClassification', ModernBertForSequenceClassification as never, () => classifierConfig('modernbert'), ['seed', 'newHead']),
  { name: 'models.BertForMaskedLM', args: () => [BERT, undefined, { seed: 1 }], call: ([c, w, o]) => built(() => new BertForMaskedLM(c as never, w as never, o as never)), optional: [1, 2],
    options: { index: 2, keys: ['seed'] }, accepted: { 'seed:-1': SEED } },
  { name: 'models.BertForMaskedLM.forward', args: () => [inputs(), { positions: [0, 2] }], call: ([i, o]) => used(() => new BertForMaskedLM(BERT, undefined, { seed: 1 }), (m) => m.forward(i as never, o as never)), optional: [1],
    options: { index: 1, keys: ['positions'] } },
];

/** The loaders and folder readers of the encoder families (a tiny folder read per case). */
const LOADER_CALLS: readonly ValidCall[] = [
  { name: 'models.loadBert', args: () => [BERT_FOLDER, {}], call: ([s, o]) => loadBert(s as never, o as never).then((m) => m.dispose()), optional: [1], options: { index: 1, keys: LOAD_KEYS }, accepted: { 'hub:{}': NO_HUB } },
  { name: 'models.loadModernBertForMaskedLM', args: () => [MODERNBERT_FOLDER, {}], call: ([s, o]) => loadModernBertForMaskedLM(s as never, o as never).then((m) => m.dispose()), optional: [1],
    options: { index: 1, keys: LOAD_KEYS }, accepted: { 'hub:{}': NO_HUB } },
  { name: 'models.loadEncoderFolder', args: () => [BERT_FOLDER, {}, { caller: 'catalogue', parseConfig: parseBertConfig, build: (c: EncoderConfig, s: { checkpoint: never }) => new BertModel(c, s.checkpoint) }],
    call: ([s, o, l]) => loadEncoderFolder(s as never, o as never, l as never).then((m) => m.dispose()), options: { index: 2, keys: ['caller', 'parseConfig', 'build', 'modelTypes', 'usesHeads', 'encoderPath', 'floatHead'] },
    accepted: { '1:{}': 'no load options: the defaults', 'caller:"x"': 'a loader name (for messages)' } },
  { name: 'models.readEncoderFolder', args: () => [modelFiles(BERT_FOLDER), { parseConfig: parseBertConfig }], call: ([s, o]) => readEncoderFolder(s as never, o as never), options: { index: 1, keys: ['parseConfig', 'modelTypes', 'checkFinite'] } },
  { name: 'models.readModelFolder', args: () => [modelFiles(BERT_FOLDER), { parseConfig: parseBertConfig, kind: 'encoder', everyFamily: 'loadEncoder' }], call: ([s, o]) => readModelFolder(s as never, o as never),
    options: { index: 1, keys: ['parseConfig', 'modelTypes', 'checkFinite', 'kind', 'defaultModelType', 'everyFamily'] },
    accepted: { 'kind:"x"': 'a name for messages', 'everyFamily:"x"': 'a loader name for messages', 'defaultModelType:"x"': "a model_type name (this folder's config.json names its own)" } },
  { name: 'models.encoderStateDict', args: () => [THE_FOLDER, ''], call: ([d, p]) => readEncoderFolder(modelFiles(BERT_FOLDER), { parseConfig: parseBertConfig }).then((folder) => encoderStateDict((d === THE_FOLDER ? folder : d) as never, p as string)), optional: [1] },
  { name: 'models.int8EncoderFiles', args: () => [BERT_FOLDER, {}], call: ([s, o]) => int8EncoderFiles(s as never, o as never), optional: [1], options: { index: 1, keys: ['backend', 'onNotice'] } },
];

const THE_TOKENIZER = Symbol('the folder\'s tokenizer');
/** The part the call read for a sentinel, else the hostile value in its place. */
const pick = (given: unknown, read: unknown): unknown => (given === THE_MODEL || given === THE_TOKENIZER || given === THE_FOLDER ? read : given);
/** A sentence folder's parts, read for one case (the encoder disposed by the case). */
const sentenceParts = async () => ({ encoder: await loadEncoder(SENTENCE_FOLDER), tokenizer: await loadTokenizer(SENTENCE_FOLDER), folder: await readSentenceFolder(SENTENCE_FOLDER) });
const crossParts = async () => ({ model: await loadSequenceClassifier(CROSS_FOLDER), tokenizer: await loadTokenizer(CROSS_FOLDER), folder: await readCrossEncoderFolder(modelFiles(CROSS_FOLDER)) });

/** The sentence package's modules, folder readers, embedding helpers and the encoders' constructors. */
const SENTENCE_CALLS: readonly ValidCall[] = [
  { name: 'sentence.parsePoolingConfig', args: () => [{ word_embedding_dimension: 4, pooling_mode_mean_tokens: true }, 'catalogue'], call: ([j, c]) => parsePoolingConfig(j, c as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'sentence.parseDenseConfig', args: () => [{ in_features: 4, out_features: 2, bias: true, activation_function: 'torch.nn.modules.activation.Tanh' }, 'catalogue'], call: ([j, c]) => parseDenseConfig(j, c as string), optional: [1], accepted: callerAccepted(1) },
  { name: 'sentence.Pooling', args: () => [parsePoolingConfig({ word_embedding_dimension: 4, pooling_mode_mean_tokens: true })], call: ([c]) => new Pooling(c as never) },
  { name: 'sentence.Pooling.forward', args: () => [f([2, 3, 4]), ones([2, 3], 'int32'), 0], call: ([t, m, p]) => tidyCall(() => new Pooling(parsePoolingConfig({ word_embedding_dimension: 4, pooling_mode_mean_tokens: true })).forward(t as Tensor, m as Tensor, p as number)), optional: [2] },
  { name: 'sentence.Dense', args: () => [parseDenseConfig({ in_features: 4, out_features: 2 }), undefined], call: ([c, w]) => built(() => new Dense(c as never, w as never)), optional: [1] },
  { name: 'sentence.Dense.forward', args: () => [f([2, 4])], call: ([x]) => used(() => new Dense(parseDenseConfig({ in_features: 4, out_features: 2 })), (d) => d.forward(x as Tensor)) },
  { name: 'sentence.poolModes', args: () => [['mean'], f([2, 3, 4]), ones([2, 3], 'int32')], call: ([p, t, m]) => tidyCall(() => poolModes(p as never, t as Tensor, m as Tensor)) },
  { name: 'sentence.l2Normalize', args: () => [f([2, 4]), 1e-12], call: ([x, e]) => tidyCall(() => l2Normalize(x as Tensor, e as number)), optional: [1] },
  { name: 'sentence.similarity', args: () => [f([2, 4]), f([3, 4]), 'cosine'], call: ([a, b, fn]) => tidyCall(() => similarity(a as Tensor, b as Tensor, fn as never)), optional: [2] },
  { name: 'sentence.quantizationRanges', args: () => [f([2, 4])], call: ([e]) => quantizationRanges(e as Tensor) },
  { name: 'sentence.quantizeEmbeddings', args: () => [f([2, 4]), 'int8', {}], call: ([e, p, o]) => quantizeEmbeddings(e as Tensor, p as never, o as never).then(release), optional: [2], options: { index: 2, keys: ['ranges'] }, accepted: { 'ranges:null': 'computed from these embeddings (documented, as ranges=None)' } },
  { name: 'sentence.activationOfTorchPath', args: () => ['torch.nn.modules.activation.Sigmoid'], call: ([p]) => activationOfTorchPath(p as string), accepted: every(0, 'undefined (documented): no activation attnkit has at that path') },
  { name: 'sentence.applyCrossEncoderActivation', args: () => [f([2, 1]), 'sigmoid'], call: ([l, a]) => tidyCall(() => applyCrossEncoderActivation(l as Tensor, a as never)) },
  { name: 'sentence.isDecoderModel', args: () => [THE_MODEL], call: ([m]) => used(() => new BertModel(BERT, undefined, { seed: 1 }), (model) => isDecoderModel((m === THE_MODEL ? model : m) as never)), accepted: every(0, 'a type guard: false for anything that is no decoder model') },
  { name: 'sentence.readSentenceFolder', args: () => [SENTENCE_FOLDER, {}], call: ([s, o]) => readSentenceFolder(s as never, o as never), optional: [1], options: { index: 1, keys: ['signal', 'fetch', 'onProgress'] } },
  { name: 'sentence.readCrossEncoderFolder', args: () => [modelFiles(CROSS_FOLDER)], call: ([s]) => readCrossEncoderFolder(s as never) },
  { name: 'sentence.SentenceEncoder', args: () => [THE_MODEL, THE_TOKENIZER, THE_FOLDER, []], call: ([e, t, f, d]) => sentenceParts().then(({ encoder, tokenizer, folder }) => {
    try { new SentenceEncoder(pick(e, encoder) as never, pick(t, tokenizer) as never, pick(f, folder) as never, d as never); } finally { encoder.dispose(); }
  }), optional: [3] },
  { name: 'sentence.SentenceEncoder.sentenceEmbeddings', args: () => [f([2, 3, 32]), ones([2, 3], 'int32'), 0], call: ([h, m, p]) => loadSentenceEncoder(SENTENCE_FOLDER).then((model) => {
    try { tidyCall(() => model.sentenceEmbeddings(h as Tensor, m as Tensor, p as number)); } finally { model.dispose(); }
  }), optional: [2] },
  { name: 'sentence.CrossEncoder', args: () => [THE_MODEL, THE_TOKENIZER, THE_FOLDER], call: ([m, t, f]) => crossParts().then(({ model, tokenizer, folder }) => {
    try { new CrossEncoder(pick(m, model) as never, pick(t, tokenizer) as never, pick(f, folder) as never); } finally { model.dispose(); }
  }) },
];

/**
 * The encoder families of the models package (config parsers, blocks, models with heads, loaders,
 * position helpers) and the sentence package's modules and helpers: every argument position and
 * option key given each hostile value, the others valid; Node only. Loader options: every key, a
 * tiny folder read per case.
 */
export const encodersPositionsCases: CatalogueCase[] = [
  ...[...HELPER_CALLS, ...BLOCK_CALLS, ...MODEL_CALLS, ...LOADER_CALLS, ...SENTENCE_CALLS].flatMap(variants),
  ...CONFIG_CALLS.flatMap(variants).filter((c) => c.input.includes(' option ')),
];
