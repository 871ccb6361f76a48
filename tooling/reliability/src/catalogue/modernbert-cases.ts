import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEncoder, loadSequenceClassifier, parseEncoderConfig, type Encoder } from '@attnkit/models';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const folder = repoPath('tooling/reference/fixtures/modernbert/sentence-mean/'); // vocab 100, 4 layers (global, sliding, global, sliding), local_attention 4
const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
const P = 'parseEncoderConfig';
async function withModel<T>(use: (model: Encoder) => T | Promise<T>): Promise<T> {
  const model = await loadEncoder(folder);
  try { return await use(model); } finally { if (!model.isDisposed) model.dispose(); }
}
const finite = (values: ArrayLike<number>) => Array.from(values).every(Number.isFinite);

/** ModernBERT: its config.json (layer kinds, rotary settings, pooling) and its inputs. */
export const modernbertCases: CatalogueCase[] = [
  rejects('modernbert', 'an unknown layer type in layer_types', E, `${P}: 'layer_types[1]' must be "full_attention" or "sliding_attention"; received "chunked_attention".`, () => parseEncoderConfig({ ...config, layer_types: ['full_attention', 'chunked_attention', 'full_attention', 'sliding_attention'] })),
  rejects('modernbert', 'layer_types shorter than num_hidden_layers', E, `${P}: 'layer_types' must be a list of num_hidden_layers = 4 layer types; received ["full_attention"].`, () => parseEncoderConfig({ ...config, layer_types: ['full_attention'] })),
  rejects('modernbert', 'an odd head width (36 / 4 = 9: rotary turns pairs)', E, /^parseEncoderConfig: 'hidden_size \/ num_attention_heads' must be .*even.*; received number 9\./, () => parseEncoderConfig({ ...config, hidden_size: 36 })),
  rejects('modernbert', 'an unknown rope_type for the sliding layers', E, /^parseEncoderConfig: 'rope_parameters\.sliding_attention\.rope_type' must be one of 'default', 'linear', 'dynamic', 'llama3', 'yarn'/, () => parseEncoderConfig({ ...config, rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 160000 }, sliding_attention: { rope_type: 'longrope', rope_theta: 10000 } } })),
  rejects('modernbert', 'rope_parameters not keyed by layer type', E, /^parseEncoderConfig: 'rope_parameters' must be an object of rope parameters by layer type/, () => parseEncoderConfig({ ...config, rope_parameters: { rope_type: 'default', rope_theta: 10000 } })),
  rejects('modernbert', 'a negative global_rope_theta (older format)', E, `${P}: 'global_rope_theta' must be a finite number > 0; received -1.`, () => parseEncoderConfig({ ...config, layer_types: undefined, rope_parameters: undefined, global_rope_theta: -1 })),
  rejects('modernbert', 'local_attention 0', E, `${P}: 'local_attention' must be a positive integer; received 0.`, () => parseEncoderConfig({ ...config, local_attention: 0 })),
  rejects('modernbert', 'classifier_pooling "max"', E, `${P}: 'classifier_pooling' must be "cls" or "mean"; received "max".`, () => parseEncoderConfig({ ...config, classifier_pooling: 'max' })),
  rejects('modernbert', 'an unknown hidden_activation', E, /^parseEncoderConfig: 'hidden_activation' must be one of "gelu", .*; received "geglu"\.$/, () => parseEncoderConfig({ ...config, hidden_activation: 'geglu' })),
  rejects('modernbert', 'norm_bias "false" (a string)', E, `${P}: 'norm_bias' must be true or false; received "false".`, () => parseEncoderConfig({ ...config, norm_bias: 'false' })),
  rejects('modernbert', 'a config.json of 10¹¹ parameters (the gated MLP counted)', 'ResourceLimitError', /^parseEncoderConfig: the .* float32 parameters this config describes/, () => parseEncoderConfig({ ...config, hidden_size: 8192, num_attention_heads: 64, intermediate_size: 2 ** 17, layer_types: undefined, num_hidden_layers: 64 })),
  rejects('modernbert', 'a sequence past max_position_embeddings', E, /^ModernBertModel\.forward: 'inputIds' must be at most max_position_embeddings = 64 tokens per sequence; received 65 tokens\./, () => withModel((m) => m.forward({ inputIds: [new Array<number>(65).fill(5)] }).lastHiddenState.shape)),
  rejects('modernbert', 'token types other than 0 (ModernBERT has none)', E, /^ModernBertModel\.forward: 'tokenTypeIds\[0\]\[1\]' must be an id in \[0, 1\); received 1\./, () => withModel((m) => m.forward({ inputIds: [[1, 5, 2]], tokenTypeIds: [[0, 1, 0]] }).lastHiddenState.shape)),
  rejects('modernbert', 'a classifier folder without a head', 'ModelLoadError', /^loadSequenceClassifier: model\.safetensors in .* has no classification head \(head\.dense\.weight, head\.norm\.weight, classifier\.weight, classifier\.bias\)/, () => loadSequenceClassifier(folder)),
  safely('modernbert', 'a row whose sliding windows see only padding (length 12, one real token)', 'finite values at every position; the real token equals its unpadded output', () => withModel((m) => {
    const padded = m.forward({ inputIds: [[1, ...new Array<number>(11).fill(0)]], attentionMask: [[1, ...new Array<number>(11).fill(0)]] }).lastHiddenState;
    const alone = m.forward({ inputIds: [[1]] }).lastHiddenState;
    try {
      const [all, one] = [padded.dataSync(), alone.dataSync()];
      return finite(all) && Array.from(one).every((v, i) => Math.abs(v - (all[i] as number)) <= 1e-5);
    } finally { padded.dispose(); alone.dispose(); }
  }), (ok) => ok === true),
];
