import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ones, tidy, zeros } from '@tensorflow/tfjs-core';
import { applyRotaryInterleaved } from '@attnkit/attention';
import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import { loadEncoder, parseEncoderConfig } from '@attnkit/models';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const L = 'ModelLoadError';
const E = 'InvalidArgumentError';
const fixtures = repoPath('tooling/reference/fixtures/relative-roformer/');
const configOf = (name: string) => JSON.parse(readFileSync(join(fixtures, name, 'config.json'), 'utf8')) as Record<string, unknown>;

/** A copy of a fixture folder with its config.json replaced (and its tensors filtered). */
function edited(name: string, config: Record<string, unknown>, keep: (key: string) => boolean = () => true): string {
  const dir = mkdtempSync(join(tmpdir(), 'attnkit-catalogue-'));
  cpSync(join(fixtures, name), dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  if (!keep('')) {
    const { tensors } = readSafetensors(new Uint8Array(readFileSync(join(dir, 'model.safetensors'))));
    writeFileSync(join(dir, 'model.safetensors'), writeSafetensors(Object.fromEntries([...tensors].filter(([key]) => keep(key)).map(([key, t]) => [key, { shape: t.shape, values: t.values as Float32Array }]))));
  }
  return dir;
}
const load = (dir: string) => loadEncoder(dir).then((m) => m.dispose());
const bert = configOf('bert-relative-key');

/** Relative-position BERTs, RoFormer and the encoder folders that need their own code. */
export const relativeRoformerCases: CatalogueCase[] = [
  rejects('loaders', 'nomic-embed-text config.json (model_type nomic_bert, auto_map)', L, /parseEncoderConfig: 'model_type' must be one of "bert", .*"roformer", "modernbert"; received "nomic_bert", NomicBERT .* trust_remote_code=True in transformers\); attnkit runs no code from a model folder/, () => load(edited('bert-relative-key', { ...bert, model_type: 'nomic_bert', auto_map: { AutoConfig: 'nomic-ai/nomic-bert-2048--configuration_hf_nomic_bert.NomicBertConfig' } }))),
  rejects('loaders', 'jina-embeddings-v2 config.json (model_type bert with its own code)', L, /'auto_map' must be no custom code .*; received AutoConfig → "jinaai\/jina-bert-implementation--configuration_bert\.JinaBertConfig" with model_type "bert"\. This folder needs its own modelling code/, () => load(edited('bert-relative-key', { ...bert, position_embedding_type: 'alibi', auto_map: { AutoConfig: 'jinaai/jina-bert-implementation--configuration_bert.JinaBertConfig', AutoModel: 'jinaai/jina-bert-implementation--modeling_bert.JinaBertModel' } }))),
  rejects('loaders', 'gte-base-en-v1.5 config (model_type new)', E, /^parseEncoderConfig: 'model_type' must be one of .*; received "new", Alibaba-NLP's NewModel/, () => parseEncoderConfig({ ...bert, model_type: 'new' })),
  rejects('loaders', 'position_embedding_type "alibi" without auto_map', L, /'position_embedding_type' must be "absolute" or "relative_key" or "relative_key_query"; received "alibi"\./, () => load(edited('bert-relative-key', { ...bert, position_embedding_type: 'alibi' }))),
  rejects('loaders', 'relative_key folder whose checkpoint lacks distance_embedding', L, /missing: encoder\.layer\.0\.attention\.self\.distance_embedding\.weight, encoder\.layer\.1\.attention\.self\.distance_embedding\.weight/, () => load(edited('bert-relative-key', bert, (key) => key !== '' && !key.includes('distance_embedding')))),
  rejects('bert', 'relative_key input longer than the distance table (max_position_embeddings 12)', E, "BertModel.forward: 'inputIds' must be at most max_position_embeddings = 12 tokens per sequence; received 13 tokens. Truncate when tokenizing (truncation: true, maxLength).", () => loadEncoder(join(fixtures, 'bert-relative-key')).then((m) => { try { m.forward({ inputIds: [Array.from({ length: 13 }, () => 5)] }); } finally { m.dispose(); } })),
  rejects('loaders', 'RoFormer config with an odd head width', E, "parseEncoderConfig: 'hidden_size' must be an even head width hidden_size / num_attention_heads (rotary embeddings turn pairs of dimensions); received 36 / 4 = 9.", () => parseEncoderConfig({ ...configOf('roformer'), hidden_size: 36 })),
  rejects('loaders', 'RoFormer rotary_value "yes"', E, "parseEncoderConfig: 'rotary_value' must be true or false; received \"yes\".", () => parseEncoderConfig({ ...configOf('roformer'), rotary_value: 'yes' })),
  safely('loaders', 'RoFormer checkpoint without encoder.embed_positions.weight', 'loads with the sinusoidal table computed as transformers stores it; no key reported as initialised', () => loadEncoder(edited('roformer', configOf('roformer'), (key) => key !== '' && key !== 'encoder.embed_positions.weight')).then((m) => { const keys = m.initialisedKeys; m.dispose(); return keys; }), (v) => Array.isArray(v) && v.length === 0),
  rejects('attention', 'applyRotaryInterleaved with an odd rotary width', E, /^applyRotaryInterleaved: 'cos' must be \[B, T, R\] or \[1, T, R\] with B, T = 1, 2 and R even, 2 ≤ R ≤ D = 4; received \[1, 2, 3\]\./, () => tidy(() => applyRotaryInterleaved(zeros([1, 2, 2, 4]), ones([1, 2, 3]), ones([1, 2, 3])))),
];
