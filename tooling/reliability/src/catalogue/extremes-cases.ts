import { getBackend, tensor, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { maxDifference, withBackend } from '@attnkit/backends';
import { maskedSoftmax } from '@attnkit/masks';
import { scaledDotProductAttention } from '@attnkit/attention';
import { safely, type CatalogueCase } from './catalogue-case.js';

const X = 'extremes';
const [B, H, T, S, D] = [2, 2, 3, 5, 4];
const VALUES: ReadonlyArray<[string, number]> = [['-1e9', -1e9], ['-3.4e38', -3.4e38], ['-Infinity', -Infinity], ['NaN', NaN], ['1e30', 1e30]];
/** Mask layouts, each broadcastable to [B, H, T, S]: key padding, a causal [T, S] mask, a full mask, and none. */
const LAYOUTS: ReadonlyArray<[string, number[] | undefined, (b: number, h: number, t: number, s: number) => boolean]> = [
  ['padding [B, 1, 1, S]', [B, 1, 1, S], (b, _h, _t, s) => s < S - b],
  ['causal [1, 1, T, S]', [1, 1, T, S], (_b, _h, t, s) => s <= t + S - T],
  ['full [B, H, T, S]', [B, H, T, S], (b, h, t, s) => (b + h + t + s) % 3 !== 0],
  ['no mask', undefined, () => true],
];

/** Scores (or a bias) [B, H, T, S] with `value` at every allowed third position and in one whole row, garbage where blocked. */
function scoresWith(value: number, allowed: (b: number, h: number, t: number, s: number) => boolean): number[] {
  const out: number[] = [];
  for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) {
    const i = out.length;
    out.push(!allowed(b, h, t, s) ? [NaN, Infinity, 3e38][i % 3]! : t === 1 || i % 3 === 0 ? value : ((i * 7) % 11) - 5);
  }
  return out;
}
function maskTensor(shape: number[] | undefined, allowed: (b: number, h: number, t: number, s: number) => boolean): Tensor | undefined {
  if (shape === undefined) return undefined;
  const values: boolean[] = [];
  for (let b = 0; b < shape[0]!; b++) for (let h = 0; h < shape[1]!; h++) for (let t = 0; t < shape[2]!; t++) for (let s = 0; s < shape[3]!; s++) values.push(allowed(b, h, t, s));
  return tensor(values, shape, 'bool');
}

/**
 * Runs `fn` on cpu and on the backend the runner set (wasm when that is cpu) and says whether they
 * agree: NaN exactly where the other has NaN, infinities alike, finite values within 1e-6.
 */
async function agree(fn: () => Tensor): Promise<{ agree: boolean; diff: number }> {
  const other = getBackend() === 'cpu' ? 'wasm' : getBackend();
  const read = (backend: string) => withBackend(backend, async () => {
    const out = tidy(fn);
    const values = await out.data();
    out.dispose();
    return values;
  });
  const [cpu, compared] = [await read('cpu'), await read(other)];
  const { maxAbsDiff } = maxDifference(compared, cpu, 'catalogue');
  return { agree: maxAbsDiff <= 1e-6, diff: maxAbsDiff };
}

/** Every combination of an extreme score, a mask layout and an attention block: cpu and wasm give the same answer (the PyTorch fixtures of masks.parity.test.ts pin which answer). */
export const extremesCases: CatalogueCase[] = VALUES.flatMap(([name, value]) =>
  LAYOUTS.flatMap(([layout, shape, allowed]) => {
    const scores = scoresWith(value, shape === undefined ? () => true : allowed);
    return [
      safely(X, `maskedSoftmax, scores ${name}, ${layout}`, 'cpu and wasm agree (NaN rows NaN, −∞-only rows zero, exact softmax otherwise)', () => agree(() => maskedSoftmax(tensor(scores, [B, H, T, S]), maskTensor(shape, allowed))), (v) => (v as { agree: boolean }).agree),
      safely(X, `scaledDotProductAttention, additive bias ${name}, ${layout}`, 'cpu and wasm agree on output and weights', () => agree(() => {
        const q = tensor(Array.from({ length: B * H * T * D }, (_, i) => ((i * 7) % 5) - 2), [B, H, T, D]);
        const k = tensor(Array.from({ length: B * H * S * D }, (_, i) => ((i * 5) % 9) - 4), [B, H, S, D]);
        const v = tensor(Array.from({ length: B * H * S * D }, (_, i) => ((i * 3) % 7) - 3), [B, H, S, D]);
        const mask = maskTensor(shape, allowed);
        const bias = tensor(scores, [B, H, T, S]); // Hugging Face's extended masks add -3.4e38 (finfo.min) this way
        const { output, attentionWeights } = scaledDotProductAttention(q, k, v, { bias, ...(mask === undefined ? {} : { mask }) });
        return tensor([...output.dataSync(), ...attentionWeights.dataSync()]);
      }), (v) => (v as { agree: boolean }).agree),
    ];
  }),
);
