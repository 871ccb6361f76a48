import { ones, tensor, tidy } from '@tensorflow/tfjs-core';
import { scaledDotProductAttention } from '@attnkit/attention';
import { loadTokenizer } from '@attnkit/tokenizers';
import { paddingMask, paddingMaskFromIds, validateMask } from '@attnkit/masks';
import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { repoPath } from './fixtures-path.js';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';

const A = 'host objects';
const E = 'InvalidArgumentError';
const target = { batch: 2, heads: 1, queryLength: 3, keyLength: 3 };
const file = writeSafetensors({ w: { shape: [3], values: Float32Array.of(1, 2, 3) } });
const tokenizerFolder = repoPath('packages/models/assets/attnkit-tiny-bert/');
const sentenceFolder = repoPath('tooling/reference/fixtures/sentence/bert-cls/');

/** A proxy over `values` whose element `index` reads `first` once, then `later` on every further read (a value that changes after its check). */
function swapping<T>(values: T[], index: number, first: unknown, later: unknown): T[] {
  let reads = 0;
  return new Proxy(values, { get: (target_, key, receiver) => (key === String(index) ? (reads++ === 0 ? first : later) : Reflect.get(target_, key, receiver)) });
}
/** Runs `fn` and returns what it threw (or `'no error'`), so a case can document an exception that is not attnkit's. */
function caught(fn: () => unknown): unknown {
  try {
    tidy(() => {
      fn();
    });
    return 'no error';
  } catch (error) {
    return error;
  }
}
const read = (mask: () => import('@tensorflow/tfjs-core').Tensor) => tidy(() => Array.from(mask().dataSync()));
const same = (expected: number[]) => (v: unknown) => JSON.stringify(v) === JSON.stringify(expected);

/** Real host objects as inputs: typed-array views at offsets, DataView, SharedArrayBuffer, Node Buffer, sparse arrays, frozen objects and proxies. */
export const hostObjectsCases: CatalogueCase[] = [
  safely(A, 'paddingMask lengths as an Int32Array view at byte offset 8 of a larger buffer', 'the mask of those lengths', () => read(() => {
    const view = new Int32Array(new ArrayBuffer(16), 8, 2);
    view.set([3, 1]);
    return paddingMask(view, 3);
  }), same([1, 1, 1, 1, 0, 0])),
  safely(A, 'paddingMask lengths as a Float64Array', 'the mask of those lengths', () => read(() => paddingMask(Float64Array.of(0, 2), 2)), same([0, 0, 1, 1])),
  // eslint-disable-next-line no-sparse-arrays
  rejects(A, 'paddingMask lengths as a sparse array [1, , 2]', E, "paddingMask: 'lengths[1]' must be an integer from 0 to keyLength = 3; received undefined.", () => paddingMask([1, , 2] as never, 3)),
  safely(A, 'paddingMask lengths as a proxy whose value changes after the first read (1, then 99)', 'the checked value (1) is the value used: one read per element', () => read(() => paddingMask(swapping([1, 1], 0, 1, 99), 3)), same([1, 0, 0, 1, 0, 0])),
  rejects(A, 'paddingMask lengths as a DataView', E, "paddingMask: 'lengths' must be an int32 tensor [B], or an array or typed array of integers; received DataView.", () => paddingMask(new DataView(new ArrayBuffer(8)) as never, 3)),
  rejects(A, 'paddingMask lengths as an array-like object', E, "paddingMask: 'lengths' must be an int32 tensor [B], or an array or typed array of integers; received Object.", () => paddingMask({ length: 1, 0: 1 } as never, 3)),
  rejects(A, 'paddingMask keyLength as a Number object', E, "paddingMask: 'keyLength' must be an integer ≥ 1; received Number.", () => paddingMask([1], new Number(3) as never)),
  // eslint-disable-next-line no-sparse-arrays
  rejects(A, 'paddingMaskFromIds with a sparse row', E, "paddingMaskFromIds: 'attentionMask[0][1]' must be 0 (padding) or 1 (token); received undefined.", () => paddingMaskFromIds([[1, , 1]] as never)),
  safely(A, 'validateMask with a frozen target', 'placed as usual: [B, 1, 1, S]', () => tidy(() => validateMask(ones([2, 1, 1, 3], 'bool'), Object.freeze({ ...target })).shape), same([2, 1, 1, 3])),
  safely(A, 'validateMask with options behind a proxy whose getters throw', "the caller's own exception propagates unchanged (not wrapped, nothing left behind)", () => caught(() => validateMask(ones([1, 3], 'bool'), new Proxy({}, { get: () => { throw new RangeError('getter of the caller'); } }) as never)), (v) => v instanceof RangeError && v.message === 'getter of the caller'),
  safely(A, 'scaledDotProductAttention with frozen options and a frozen mask shape', 'the same output as unfrozen options', () => tidy(() => {
    const [q, k, v] = [tensor([[[[1, 0]]]]), tensor([[[[1, 0], [0, 1]]]]), tensor([[[[1, 2], [3, 4]]]])];
    const mask = tensor([[[[true, false]]]], [1, 1, 1, 2], 'bool');
    const frozen = scaledDotProductAttention(q, k, v, Object.freeze({ mask })).output.dataSync();
    const plain = scaledDotProductAttention(q, k, v, { mask }).output.dataSync();
    return [Array.from(frozen), Array.from(plain)];
  }), (v) => JSON.stringify((v as number[][])[0]) === JSON.stringify((v as number[][])[1]) && JSON.stringify((v as number[][])[0]) === '[1,2]'),
  safely(A, 'readSafetensors of a Node Buffer at an odd offset of a pooled buffer', 'the values, copied (changing the Buffer afterwards changes nothing)', () => {
    const pooled = Buffer.alloc(file.length + 7);
    Buffer.from(file).copy(pooled, 7);
    const values = readSafetensors(pooled.subarray(7)).tensors.get('w')!.values;
    pooled.fill(0);
    return Array.from(values);
  }, same([1, 2, 3])),
  safely(A, 'readSafetensors of a DataView at byte offset 4', 'the values', () => {
    const padded = new ArrayBuffer(file.length + 4);
    new Uint8Array(padded).set(file, 4);
    return Array.from(readSafetensors(new DataView(padded, 4, file.length)).tensors.get('w')!.values);
  }, same([1, 2, 3])),
  safely(A, 'readSafetensors of a SharedArrayBuffer', 'the values', () => {
    const shared = new SharedArrayBuffer(file.length);
    new Uint8Array(shared).set(file);
    return Array.from(readSafetensors(shared).tensors.get('w')!.values);
  }, same([1, 2, 3])),
  rejects(A, 'readSafetensors of a plain array of byte values', E, /^readSafetensors: 'input' must be the file as bytes: a Uint8Array \(a Node Buffer\), another ArrayBuffer view, an ArrayBuffer or a SharedArrayBuffer; received array \[/, () => readSafetensors(Array.from(file) as never)),
  safely(A, 'writeSafetensors of values in a SharedArrayBuffer view at offset 4, frozen entries', 'a file its reader reads back to the same values', () => {
    const values = new Float32Array(new SharedArrayBuffer(16), 4, 2);
    values.set([5, 6]);
    const written = writeSafetensors(Object.freeze({ w: Object.freeze({ shape: Object.freeze([2]), values }) }) as never);
    return Array.from(readSafetensors(written).tensors.get('w')!.values);
  }, same([5, 6])),
  // eslint-disable-next-line no-sparse-arrays
  rejects(A, 'Tokenizer.encode of a sparse list', E, "Tokenizer.encode: 'texts[1]' must be a string or a [string, string] pair; received undefined.", async () => (await loadTokenizer(tokenizerFolder)).encode(['hello', , 'world'] as never)),
  safely(A, 'Tokenizer.encode of a proxy that swaps a text for a number after its check', 'the checked text is the text encoded', async () => (await loadTokenizer(tokenizerFolder)).encode(swapping(['hello'], 0, 'hello', 42)).tokens, (v) => JSON.stringify(v) === '[["[CLS]","hello","[SEP]"]]'),
  rejects(A, 'SentenceEncoder.encode of a sparse list', E, "SentenceEncoder.encode: 'texts[1]' must be a string; received undefined.", async () => {
    const model = await loadSentenceEncoder(sentenceFolder);
    try {
      // eslint-disable-next-line no-sparse-arrays
      (await model.encode(['a', , 'b'] as never)).dispose();
    } finally {
      model.dispose();
    }
  }),
  rejects(A, 'SentenceEncoder.encode of a String object', E, "SentenceEncoder.encode: 'texts[0]' must be a string; received String.", async () => {
    const model = await loadSentenceEncoder(sentenceFolder);
    try {
      (await model.encode([new String('a') as never])).dispose();
    } finally {
      model.dispose();
    }
  }),
  safely(A, 'SentenceEncoder.encode of a frozen list and of a proxy that swaps a text after its check', 'both equal the plain list, bit for bit', async () => {
    const model = await loadSentenceEncoder(sentenceFolder);
    try {
      const embed = async (texts: readonly string[]) => {
        const out = await model.encode(texts);
        const values = Array.from(await out.data());
        out.dispose();
        return values;
      };
      const plain = await embed(['a cat', 'a dog']);
      return [plain, await embed(Object.freeze(['a cat', 'a dog'])), await embed(swapping(['a cat', 'a dog'], 1, 'a dog', 'something else entirely'))];
    } finally {
      model.dispose();
    }
  }, (v) => {
    const [plain, frozen, swapped] = v as number[][];
    return plain!.length > 0 && JSON.stringify(frozen) === JSON.stringify(plain) && JSON.stringify(swapped) === JSON.stringify(plain);
  }),
];
