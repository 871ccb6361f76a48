import { customGrad, gather, mul, reshape, scalar, scatterND, sub, tidy, oneHot, type Tensor } from '@tensorflow/tfjs-core';

/**
 * Rows of `weight [N, E]` for `ids` int32 `[...]` → `[..., E]`, with the gradient PyTorch's
 * embedding backward gives: `dy` summed into the rows the ids name (an id used k times gets k
 * contributions), row `paddingIdx` none. tfjs' own gradient of `gather` goes through
 * `UnsortedSegmentSum`, whose cpu and wasm kernels loop over every one of the N rows per id
 * (seconds per step for a 30 000-word vocabulary); this one is one `scatterND` over the ids used.
 * `ids` are taken as valid (`Embedding.forward` checks them).
 *
 * @example
 * const x = embeddingLookup(weight, ids); // [B, T] ids -> [B, T, E]
 */
export function embeddingLookup(weight: Tensor, ids: Tensor, paddingIdx?: number): Tensor {
  const [rows, width] = weight.shape as [number, number];
  const lookup = customGrad(((w: Tensor, save: (tensors: Tensor[]) => void) => {
    save([ids]); // kept for the backward pass: the caller's tidy may dispose `ids` before it runs
    return {
      value: gather(w, ids), // [...] -> [..., E]
      gradFunc: (dy: Tensor, saved: Tensor[]) =>
        tidy(() => {
          const summed = scatterND(reshape(saved[0] as Tensor, [-1, 1]), reshape(dy, [-1, width]), [rows, width]); // [M, 1], [M, E] -> [N, E], repeats summed
          return paddingIdx === undefined ? summed : mul(summed, sub(scalar(1), reshape(oneHot([paddingIdx], rows), [-1, 1]))); // [N, E] x [N, 1]
        }),
    };
  }) as unknown as Parameters<typeof customGrad>[0]);
  return lookup(weight) as Tensor;
}
