import { tensor } from '@tensorflow/tfjs-core';
import type { ConformanceCase } from '../conformance-case.js';
import { fusedAttention, fusedAttentionKernels, FUSED_ATTENTION_KERNEL_NAMES, type FusedAttentionKernelName } from '@attnkit/kernels';
import { fusedAttention64, type Broadcast4 } from './fused-attention64.js';
import { halfExactValues } from './half-exact-values.js';
import { once } from './once.js';
import { toleranceOf } from './tolerance-of.js';

type Shape4 = readonly [number, number, number, number];

/** One attention call: sizes `[B, H, T, S, D, Dv]`, a mask and a bias of the given shapes (values from `maskOf`, seeded bias). */
interface AttentionShape {
  readonly label: string;
  readonly sizes: readonly [number, number, number, number, number, number];
  readonly mask?: { readonly shape: Shape4; readonly allowed: (b: number, i: number, j: number) => boolean };
  readonly bias?: Shape4;
  readonly seed: number;
}

const SHAPES: readonly AttentionShape[] = [
  // batch 0 attends to all 7 keys, batch 1 to its first 4 (padding)
  { label: 'padding mask [2,1,1,7]', sizes: [2, 3, 5, 7, 8, 8], mask: { shape: [2, 1, 1, 7], allowed: (b, _i, j) => b === 0 || j < 4 }, seed: 201 },
  { label: 'bias [1,3,5,7], D 6, Dv 5', sizes: [2, 3, 5, 7, 6, 5], bias: [1, 3, 5, 7], seed: 202 },
  // whole query rows blocked (row 2 of batch 0, row 4 of batch 1: exact zeros), with a per-batch key bias
  { label: 'mask rows [2,1,5,1] + bias [2,1,1,7]', sizes: [2, 2, 5, 7, 8, 8], mask: { shape: [2, 1, 5, 1], allowed: (b, i) => i !== (b === 0 ? 2 : 4) }, bias: [2, 1, 1, 7], seed: 203 },
  { label: 'causal mask [1,1,6,6], D 16', sizes: [2, 2, 6, 6, 16, 16], mask: { shape: [1, 1, 6, 6], allowed: (_b, i, j) => j <= i }, seed: 204 },
];

const size = (shape: readonly number[]) => shape.reduce((n, d) => n * d, 1);

function inputs(shape: AttentionShape) {
  const [b, h, t, s, d, dv] = shape.sizes;
  const mask = shape.mask && {
    shape: shape.mask.shape,
    values: Uint8Array.from({ length: size(shape.mask.shape) }, (_, n) => {
      const [, heads, rows, keys] = shape.mask!.shape;
      return shape.mask!.allowed(Math.floor(n / (heads * rows * keys)), Math.floor(n / keys) % rows, n % keys) ? 1 : 0; // [B|1, H|1, T|1, S|1]
    }),
  };
  return {
    sizes: shape.sizes,
    scale: Math.fround(Math.sqrt(1 / d)), // the default scale, rounded to float32 as the kernels use it
    query: halfExactValues(shape.seed, b * h * t * d, -2, 2), // [B, H, T, D]; every input exact in float16
    key: halfExactValues(shape.seed + 1, b * h * s * d, -1, 1), // [B, H, S, D]
    value: halfExactValues(shape.seed + 2, b * h * s * dv, -1, 1), // [B, H, S, Dv]
    mask: mask as Broadcast4 | undefined,
    bias: shape.bias && { shape: shape.bias, values: halfExactValues(shape.seed + 3, size(shape.bias), -2, 2) },
  };
}

function attentionCase(kernel: FusedAttentionKernelName, shape: AttentionShape): ConformanceCase {
  const data = once(() => inputs(shape));
  // float64 softmax attention; tolerance: the float32 rounding bound of its steps (see fusedAttention64)
  const reference = once(() => fusedAttention64(data()));
  const [b, h, t, s, d, dv] = shape.sizes;
  return {
    name: `fusedAttention ${kernel}, ${shape.label} [${[b, h, t, d]}]x[${[b, h, s, d]}]x[${[b, h, s, dv]}]`,
    kernels: [], // runs on the CPU whatever the backend: only uploads and reads back
    get tolerance() {
      return toleranceOf(reference());
    },
    compute: () => {
      const { query, key, value, mask, bias, scale } = data();
      return fusedAttention(tensor(query, [b, h, t, d]), tensor(key, [b, h, s, d]), tensor(value, [b, h, s, dv]), {
        mask: mask && tensor(mask.values as Uint8Array, [...mask.shape], 'bool'),
        bias: bias && tensor(bias.values, [...bias.shape]),
        scale,
        kernel,
      });
    },
    reference: () => reference().values,
    available: () => (fusedAttentionKernels().supported.includes(kernel) ? undefined : `the ${kernel} kernel does not validate in this engine`),
  };
}

/**
 * `fusedAttention` on each of its kernels (`'simd'`, `'js'`) with a padding mask `[B, 1, 1, S]`,
 * a per-head bias `[1, H, T, S]`, whole query rows masked `[B, 1, T, 1]` with a key bias
 * `[B, 1, 1, S]`, and a causal mask `[1, 1, T, S]`, against float64 softmax attention.
 */
export const fusedAttentionCases: readonly ConformanceCase[] = FUSED_ATTENTION_KERNEL_NAMES.flatMap((kernel) => SHAPES.map((shape) => attentionCase(kernel, shape)));
