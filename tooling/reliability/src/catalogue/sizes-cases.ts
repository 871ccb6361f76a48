import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fused, gather, memory, slice, type Tensor, tensor1d, tensor2d, tensor3d, tidy, zeros } from '@tensorflow/tfjs-core';
import { withBackend } from '@attnkit/backends';
import { MultiHeadAttention } from '@attnkit/attention';
import { BertModel, parseEncoderConfig } from '@attnkit/models';
import { causalMask, paddingMask } from '@attnkit/masks';
import { Embedding, Linear } from '@attnkit/nn';
import { scaledDotProductAttention } from '@attnkit/attention';
import { loadEncoder } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const Z = 'sizes and memory';
const R = 'ResourceLimitError';
const S = 'SafetensorsError';

/** scaledDotProductAttention on zeros of [B, H, T, D] / [B, H, S, D] under `backend`; inputs disposed. */
function attention(backend: 'cpu' | 'wasm', [b, h, t, s]: [number, number, number, number]): Promise<unknown> {
  return withBackend(backend, () => {
    const [q, k, v] = [zeros([b, h, t, 1]), zeros([b, h, s, 1]), zeros([b, h, s, 1])];
    try {
      const { output, attentionWeights } = scaledDotProductAttention(q, k, v);
      const shape = output.shape;
      [output, attentionWeights].forEach((x) => x.dispose());
      return shape;
    } finally {
      [q, k, v].forEach((x) => x.dispose());
    }
  });
}

const file = writeSafetensors({ a: { shape: [3], values: Float32Array.of(1, 2, 3) } });
const values = Float32Array.of(1, 2);

function nanFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'attnkit-nan-'));
  cpSync(repoPath('tooling/reference/fixtures/families/bert'), dir, { recursive: true });
  const { tensors } = readSafetensors(new Uint8Array(readFileSync(join(dir, 'model.safetensors'))));
  writeFileSync(join(dir, 'model.safetensors'), writeSafetensors(Object.fromEntries([...tensors].map(([name, t], i) => [name, { shape: [...t.shape], values: Float32Array.from(t.values, (x, j) => (i === 0 && j === 0 ? NaN : x)) }]))));
  return dir;
}

/** Sizes at and past the limits, host memory views, and what the writers and loaders let through. */
export const sizesCases: CatalogueCase[] = [
  ...(['cpu', 'wasm'] as const).flatMap((backend) => [
    rejects(Z, `attention scores [1, 2, 30000, 30000] on ${backend} (6.7 GiB each)`, R, new RegExp(`^scaledDotProductAttention: the attention scores \\[1, 2, 30000, 30000\\] float32 \\(3 at once\\) need 20\\.1 GiB, more than the 2\\.0 GiB ${backend} allows`), () => attention(backend, [1, 2, 30_000, 30_000])),
    rejects(Z, `attention scores [64, 16, 1024, 1024] on ${backend} (a large batch)`, R, /need 12\.0 GiB, more than the 2\.0 GiB/, () => attention(backend, [64, 16, 1024, 1024])),
    rejects(Z, `attention scores [1, 1, 16384, 16385] on ${backend} (just past the budget)`, R, /need 3\.0 GiB, more than the 2\.0 GiB/, () => attention(backend, [1, 1, 16_384, 16_385])),
    safely(Z, `attention scores [1, 1, 2048, 2048] on ${backend} (well inside)`, 'runs: output [1, 1, 2048, 1]', () => attention(backend, [1, 1, 2048, 2048]), (v) => JSON.stringify(v) === '[1,1,2048,1]'),
  ]),
  rejects(Z, 'Embedding(1e9, 768): a 2.8 TiB table', R, /^Embedding: the values of a parameter \[1000000000, 768\] float32 need 2861\.0 GiB, more than the 2\.0 GiB cpu allows/, () => new Embedding(1e9, 768)),
  rejects(Z, 'Linear(70000, 70000): 18 GiB of weights', R, /^Linear: the values of a parameter \[70000, 70000\] float32 need 18\.3 GiB/, () => new Linear(70_000, 70_000)),
  rejects(Z, 'MultiHeadAttention with embedDim 1e6', R, /^MultiHeadAttention: the values of a parameter \[3000000, 1000000\] float32 need \d+\.\d GiB/, () => new MultiHeadAttention({ embedDim: 1e6, numHeads: 1 })),
  rejects(Z, 'config.json with vocab_size 1e9', R, /^parseEncoderConfig: the 3\.\d+e\+10 float32 parameters this config describes need \d+\.\d GiB, more than the 4\.0 GiB any backend allows/, () => parseEncoderConfig({ model_type: 'bert', vocab_size: 1e9, hidden_size: 32, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 64, max_position_embeddings: 16, type_vocab_size: 2 })),
  rejects(Z, 'config.json with a million layers', 'InvalidArgumentError', "parseEncoderConfig: 'num_hidden_layers' must be at most 1024 layers; received 1000000.", () => parseEncoderConfig({ model_type: 'bert', vocab_size: 10, hidden_size: 8, num_hidden_layers: 1e6, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 16, type_vocab_size: 2 })),
  rejects(Z, 'BertModel built by hand from a config with 2³¹ tokens', R, /^BertModel: the .* float32 parameters this config describes need/, () => new BertModel({ ...parseEncoderConfig({ model_type: 'bert', vocab_size: 10, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 16, type_vocab_size: 2 }), vocabSize: 2 ** 31 })),
  safely(Z, 'config.json the size of XLM-R large (560 M parameters)', 'accepted', () => parseEncoderConfig({ model_type: 'xlm-roberta', vocab_size: 250002, hidden_size: 1024, num_hidden_layers: 24, num_attention_heads: 16, intermediate_size: 4096, max_position_embeddings: 514, type_vocab_size: 1, pad_token_id: 1 }).numHiddenLayers, (v) => v === 24),
  rejects(Z, 'paddingMask with keyLength 2³³', R, /^paddingMask: the values of the mask \[1, 1, 1, 8589934592\] float32 need 32\.0 GiB/, () => paddingMask([0], 2 ** 33)),
  rejects(Z, 'causalMask of 2²⁰ × 2²⁰', R, /^causalMask: the values of the mask \[1, 1, 1048576, 1048576\] float32 need 4096\.0 GiB/, () => causalMask(2 ** 20, 2 ** 20)),
  safely(Z, 'tokenizing one text of 1 000 000 characters without truncation', 'every token returned', async () => (await loadTokenizer(repoPath('packages/models/assets/attnkit-tiny-bert/'))).encode(['word '.repeat(200_000)], { truncation: false }).inputIds[0]!.length, (n) => n === 200_002),
  safely(Z, 'tokenizing 125 000 texts in one call', '125 000 rows, padded to the longest', async () => (await loadTokenizer(repoPath('packages/models/assets/attnkit-tiny-bert/'))).encode(Array.from({ length: 125_000 }, (_, i) => 'a b c'.slice(0, 1 + (i % 5)))).inputIds.length, (n) => n === 125_000),
  safely(Z, 'readSafetensors on a Node Buffer at an odd offset of a pooled buffer', 'read correctly, as a copy (later writes to the buffer change nothing)', () => {
    const pooled = Buffer.alloc(file.length + 3);
    pooled.set(file, 3);
    const { tensors } = readSafetensors(pooled.subarray(3));
    pooled.fill(0);
    return Array.from(tensors.get('a')!.values);
  }, (v) => JSON.stringify(v) === '[1,2,3]'),
  safely(Z, 'readSafetensors on a SharedArrayBuffer view at an odd offset', 'read correctly, as a copy', () => {
    const shared = new SharedArrayBuffer(file.length + 1);
    new Uint8Array(shared).set(file, 1);
    return Array.from(readSafetensors(new Uint8Array(shared, 1)).tensors.get('a')!.values);
  }, (v) => JSON.stringify(v) === '[1,2,3]'),
  safely(Z, 'readSafetensors on an ArrayBuffer (not a view)', 'read correctly', () => Array.from(readSafetensors(file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer).tensors.get('a')!.values), (v) => JSON.stringify(v) === '[1,2,3]'),
  rejects(Z, 'writeSafetensors with a tensor named __metadata__', S, 'safetensors: writeSafetensors: a tensor cannot be named "__metadata__" (the format reserves "__metadata__"; names are non-empty).', () => writeSafetensors({ __metadata__: { shape: [2], values } })),
  rejects(Z, 'writeSafetensors with a shape that does not match the values', S, 'safetensors: writeSafetensors: tensor "a" has shape [5] (5 values) but holds 2.', () => writeSafetensors({ a: { shape: [5], values } })),
  rejects(Z, 'writeSafetensors with float64 values', S, 'safetensors: writeSafetensors: tensor "a" must hold a Float32Array (F32) or an Int8Array (I8); received [object Float64Array].', () => writeSafetensors({ a: { shape: [2], values: Float64Array.of(1, 2) as never } })),
  rejects(Z, 'writeSafetensors with a fractional dimension', S, 'safetensors: writeSafetensors: tensor "a" has shape [0.5,4]; expected a list of non-negative integers.', () => writeSafetensors({ a: { shape: [0.5, 4], values } })),
  rejects(Z, 'a checkpoint with a NaN weight, loaded with checkFinite', 'ModelLoadError', /^loadEncoder: model\.safetensors in .* has non-finite weights \(checkFinite\): [^:]+: 1 NaN\.$/, () => loadEncoder(nanFolder(), { checkFinite: true })),
  safely(Z, 'the same checkpoint loaded without checkFinite', 'loads (the check reads every value, so it is opt-in); no tensor left behind after dispose', async () => {
    const before = memory().numTensors;
    (await loadEncoder(nanFolder())).dispose();
    return memory().numTensors - before;
  }, (v) => v === 0),
];

/** Bugs of tfjs-backend-wasm 4.22 that attnkit's kernels reach, each guarded: wasm now answers as cpu does. */
async function onBoth(fn: () => Tensor): Promise<string[]> {
  const read = (backend: string) => withBackend(backend, async () => {
    try {
      const out = tidy(fn);
      const values = Array.from(await out.data()).map((v) => Math.round(v * 1e5) / 1e5);
      out.dispose();
      return JSON.stringify(values);
    } catch (error) {
      return `throws: ${(error as Error).message.replace(/slice\dD/, 'sliceND')}`;
    }
  });
  return [await read('cpu'), await read('wasm')];
}
const same = (v: unknown) => (v as string[])[0] === (v as string[])[1];
export const wasmGuardCases: CatalogueCase[] = [
  safely(Z, 'slice past the end of a [2, 3] tensor on wasm', 'throws as on cpu (before: read whatever lay beyond the tensor in the heap)', () => onBoth(() => slice(tensor2d([[1, 2, 3], [4, 5, 6]]), [1, 1], [2, 2])), (v) => same(v) && (v as string[])[0]!.startsWith('throws: Error in sliceND: begin[0] + size[0] (3) would overflow')),
  safely(Z, 'batched fused matMul with a bias on wasm', 'equals cpu (before: every row after the first got the wrong bias)', () => onBoth(() => fused.matMul({ a: tensor3d([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [2, 2, 3]), b: tensor3d(Array.from({ length: 24 }, (_, i) => (i * 5) % 3), [2, 3, 4]), bias: tensor1d([1, 2, 3, 4]) })), same),
  safely(Z, 'batched fused matMul with a bias, transposeA and relu on wasm', 'equals cpu', () => onBoth(() => fused.matMul({ a: tensor3d([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [2, 3, 2]), b: tensor3d(Array.from({ length: 24 }, (_, i) => (i * 5) % 3 - 1), [2, 3, 4]), transposeA: true, bias: tensor1d([1, -20, 3, 4]), activation: 'relu' })), same),
  safely(Z, 'gather with batchDims 1 on wasm', 'equals cpu', () => onBoth(() => gather(tensor2d([[1, 2], [3, 4]]), tensor2d([[1], [0]], undefined, 'int32'), 1, 1)), same),
];
