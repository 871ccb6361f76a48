import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { writeSafetensors, readSafetensors } from '@attnkit/hub';
import { ModelLoadError } from '@attnkit/hub';
import { loadBert } from './load-bert.js';

const fixture = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/bert-b/', import.meta.url).pathname);
const config = readFileSync(join(fixture, 'config.json'), 'utf8');
const weights = readFileSync(join(fixture, 'model.safetensors'));
beforeAll(() => useBackend('cpu'));

function folderWith(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'attnkit-bert-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}
async function loadError(source: Parameters<typeof loadBert>[0]): Promise<ModelLoadError> {
  const error = await loadBert(source).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ModelLoadError);
  return error as ModelLoadError;
}
function reweighted(change: (tensors: Record<string, { shape: number[]; values: Float32Array }>) => void): Uint8Array {
  const tensors = Object.fromEntries([...readSafetensors(weights).tensors].map(([n, e]) => [n, { shape: [...e.shape], values: e.values as Float32Array }]));
  change(tensors);
  return writeSafetensors(tensors);
}

describe('loadBert', () => {
  it('loads the same model from a folder, from files, and returns memory to baseline on dispose', async () => {
    const before = memory().numTensors;
    const model = await loadBert(fixture);
    const fromFiles = await loadBert({ files: { 'config.json': config, 'model.safetensors': new Uint8Array(weights) } });
    expect(model.config).toEqual(fromFiles.config);
    model.dispose();
    fromFiles.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('loads a checkpoint saved without a pooler (add_pooling_layer=False): same encoder, pooler initialised, a notice says so', async () => {
    const notices: string[] = [];
    const full = await loadBert(fixture);
    const noPooler = await loadBert(folderWith({ 'config.json': config, 'model.safetensors': reweighted((t) => { delete t['pooler.dense.weight']; delete t['pooler.dense.bias']; }) }), { onNotice: (m) => notices.push(m) });
    expect(noPooler.initialisedKeys).toEqual(['pooler.dense.weight', 'pooler.dense.bias']);
    expect(full.initialisedKeys).toEqual([]);
    expect(notices).toEqual([expect.stringMatching(/has no pooler \(a checkpoint saved without one\); pooler\.dense\.weight and pooler\.dense\.bias are initialised randomly, as transformers does/)]);
    const inputs = { inputIds: [[2, 5, 7, 3]] };
    const [a, b] = [full.forward(inputs), noPooler.forward(inputs)];
    expect(Array.from(await b.lastHiddenState.data())).toEqual(Array.from(await a.lastHiddenState.data()));
    expect(Array.from(await noPooler.pooler.get('dense').bias!.data()).every((v) => v === 0)).toBe(true); // Hugging Face's init: zero bias
    [a.lastHiddenState, a.poolerOutput, b.lastHiddenState, b.poolerOutput].forEach((t) => t.dispose());
    full.dispose();
    noPooler.dispose();
  });

  it('a checkpoint with only half a pooler is an error, not a silent initialisation', async () => {
    const half = folderWith({ 'config.json': config, 'model.safetensors': reweighted((t) => { delete t['pooler.dense.bias']; }) });
    expect((await loadError(half)).message).toMatch(/1 missing: pooler\.dense\.bias\.$/);
  });

  it('reports progress per file', async () => {
    const seen: string[] = [];
    (await loadBert(fixture, { onProgress: (p) => seen.push(`${p.file}:${p.loaded === p.total ? 'done' : 'start'}`) })).dispose();
    expect(seen).toEqual(['config.json:start', 'config.json:done', 'model.safetensors:start', 'model.safetensors:done']);
  });

  it.each<[string, () => Parameters<typeof loadBert>[0], RegExp]>([
    ['a folder that does not exist', () => '/nonexistent/attnkit-model', /^loadBert: config\.json is missing in \/nonexistent\/attnkit-model; a Hugging Face model folder has config\.json and model\.safetensors\.$/],
    ['malformed config.json', () => folderWith({ 'config.json': '{"vocab_size": 5,', 'model.safetensors': weights }), /^loadBert: config\.json in .* is not valid JSON \(/],
    ['an unsupported config', () => folderWith({ 'config.json': config.replace('"gelu"', '"gelu_exact"'), 'model.safetensors': weights }), /^loadBert: config\.json in .* is not a supported encoder config: parseBertConfig: 'hidden_act' must be one of "gelu", /],
    ['no weights, only pytorch_model.bin', () => folderWith({ 'config.json': config, 'pytorch_model.bin': 'x' }), /^loadBert: model\.safetensors is missing in .* \(it has pytorch_model\.bin: convert it/],
    ['truncated safetensors', () => folderWith({ 'config.json': config, 'model.safetensors': weights.subarray(0, weights.length - 100) }), /^loadBert: model\.safetensors in .*: safetensors: tensor '.*' ends at byte \d+ but the data section has \d+ bytes\.$/],
    ['a lying header size', () => { const w = new Uint8Array(weights); new DataView(w.buffer).setBigUint64(0, 10n ** 12n, true); return folderWith({ 'config.json': config, 'model.safetensors': w }); }, /safetensors: the header claims 1000000000000 bytes, more than the 100000000 allowed\.$/],
    ['a mis-shaped and a missing weight', () => folderWith({ 'config.json': config, 'model.safetensors': reweighted((t) => { t['pooler.dense.bias'] = { shape: [23], values: new Float32Array(23) }; delete t['embeddings.LayerNorm.weight']; }) }),
      /does not match config\.json: BertModel\.loadStateDict: the state dict does not fit the module\. 1 missing: embeddings\.LayerNorm\.weight\. 1 mis-shaped: pooler\.dense\.bias \(expected \[24\] float32, received \[23\] float32\)\.$/],
    ['tensors a BertModel does not have', () => folderWith({ 'config.json': config, 'model.safetensors': reweighted((t) => { t['encoder.layer.9.output.dense.weight'] = { shape: [1], values: new Float32Array(1) }; }) }),
      /does not match config\.json: BertModel\.loadStateDict: the state dict does not fit the module\. 1 unexpected: encoder\.layer\.9\.output\.dense\.weight\.$/],
    ['two tensors for one weight', () => folderWith({ 'config.json': config, 'model.safetensors': reweighted((t) => { t['bert.pooler.dense.bias'] = t['pooler.dense.bias']!; }) }),
      /^loadBert: model\.safetensors in .* has several tensors for one weight: bert\.pooler\.dense\.bias and pooler\.dense\.bias \(both pooler\.dense\.bias\)\. Keep one of each\.$/],
    ['config.json that is a list', () => ({ files: { 'config.json': '[1, 2]', 'model.safetensors': weights } }), /^loadBert: config\.json in the given files is not a supported encoder config: parseBertConfig: 'config' must be a JSON object/],
  ])('rejects %s with a ModelLoadError naming the file', async (_, source, message) => {
    const before = memory().numTensors;
    expect((await loadError(source())).message).toMatch(message);
    expect(memory().numTensors).toBe(before); // nothing decoded is left behind
  });
});
