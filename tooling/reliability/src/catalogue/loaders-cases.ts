import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSafetensors } from '@attnkit/hub';
import { loadBert, parseBertConfig, parseEncoderConfig } from '@attnkit/models';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const fixture = repoPath('tooling/reference/fixtures/bert-b/');
const config = readFileSync(join(fixture, 'config.json'), 'utf8');
const weights = new Uint8Array(readFileSync(join(fixture, 'model.safetensors')));
const L = 'ModelLoadError';
const S = 'SafetensorsError';

function folder(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'attnkit-catalogue-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}
function header(json: string, data: Uint8Array = new Uint8Array(0), claimed?: bigint): Uint8Array {
  const text = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, claimed ?? BigInt(text.length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}
const load = (files: Record<string, string | Uint8Array>) => loadBert(folder(files)).then((m) => m.dispose());
const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52);

/** Model folders, config.json and safetensors files: missing, malformed, lying, hostile. */
export const loadersCases: CatalogueCase[] = [
  rejects('loaders', 'folder that does not exist', L, /^loadBert: config\.json is missing in \/nonexistent\/attnkit; a Hugging Face model folder has config\.json and model\.safetensors\.$/, () => loadBert('/nonexistent/attnkit')),
  rejects('loaders', 'malformed config.json', L, /^loadBert: config\.json in .* is not valid JSON \(/, () => load({ 'config.json': '{"vocab_size": 5,', 'model.safetensors': weights })),
  rejects('loaders', 'config.json that is a list', L, /is not a supported encoder config: parseBertConfig: 'config' must be a JSON object \(config\.json\); received \[1,2\]\.$/, () => load({ 'config.json': '[1,2]', 'model.safetensors': weights })),
  rejects('loaders', 'unknown hidden_act', L, /parseBertConfig: 'hidden_act' must be one of "gelu", .* received "gelu_exact"\.$/, () => load({ 'config.json': config.replace('"gelu"', '"gelu_exact"'), 'model.safetensors': weights })),
  rejects('loaders', 'config of an architecture attnkit does not build', 'InvalidArgumentError', /^parseEncoderConfig: 'model_type' must be one of "bert", "distilbert", "roberta", "xlm-roberta", "electra", "mpnet", "roformer", "modernbert"; received "nomic_bert", NomicBERT .*On the Hub its folders name their own modelling code/, () => parseEncoderConfig({ ...JSON.parse(config), model_type: 'nomic_bert' })),
  rejects('loaders', 'a RoBERTa config read as BERT', 'InvalidArgumentError', 'parseBertConfig: \'model_type\' must be "bert"; received "roberta". Other families load with loadEncoder (parseEncoderConfig).', () => parseBertConfig({ ...JSON.parse(config), model_type: 'roberta' })),
  safely('loaders', "'__proto__' keys in config.json", 'read as plain keys: no prototype pollution, the config is unaffected', () => parseBertConfig(JSON.parse(`{"__proto__":{"hidden_size":1,"polluted":true},${config.trim().slice(1)}`)), (v) => (v as { hiddenSize: number }).hiddenSize === 24 && ({} as Record<string, unknown>)['polluted'] === undefined),
  rejects('loaders', 'only pytorch_model.bin', L, /model\.safetensors is missing in .* \(it has pytorch_model\.bin: convert it/, () => load({ 'config.json': config, 'pytorch_model.bin': 'x' })),
  rejects('loaders', 'truncated safetensors', L, /: safetensors: tensor '.*' ends at byte \d+ but the data section has \d+ bytes\.$/, () => load({ 'config.json': config, 'model.safetensors': weights.subarray(0, weights.length - 64) })),
  rejects('loaders', 'a PNG named model.safetensors', L, /: safetensors: the header claims \d+ bytes, more than the 100000000 allowed\.$/, () => load({ 'config.json': config, 'model.safetensors': PNG })),
  rejects('loaders', 'oversized header size (10^12 bytes)', S, 'safetensors: the header claims 1000000000000 bytes, more than the 100000000 allowed.', () => readSafetensors(header('{}', new Uint8Array(0), 10n ** 12n))),
  rejects('loaders', 'overlapping tensors', S, "safetensors: tensor 'b' starts at byte 4, inside the previous tensor (which ends at 8).", () => readSafetensors(header('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', new Uint8Array(12)))),
  rejects('loaders', 'offsets that lie about the size', S, "safetensors: tensor 'a' (F32 [3]) needs 12 bytes but its offsets span 8.", () => readSafetensors(header('{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}', new Uint8Array(8)))),
  rejects('loaders', 'unsupported dtype F64', S, 'safetensors: tensor \'a\' has dtype "F64"; attnkit reads F32, F16, BF16, I32, I64, I8.', () => readSafetensors(header('{"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}}', new Uint8Array(8)))),
  rejects('loaders', 'weights of the wrong shape', L, /does not match config\.json: BertModel\.loadStateDict: the state dict does not fit the module\. \d+ mis-shaped: embeddings\.word_embeddings\.weight \(expected \[\d+, 48\] float32, received \[\d+, 24\] float32\)/, () => load({ 'config.json': config.replace('"hidden_size": 24', '"hidden_size": 48'), 'model.safetensors': weights })),
];
