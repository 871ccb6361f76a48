import type { Tensor, Tensor4D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, formatShape } from '@attnkit/errors';
import { causalMask } from './causal-mask.js';
import { checkBoolMask } from './check-bool-mask.js';
import { mergeMasks } from './merge-masks.js';
import { slidingWindowCausalMask } from './sliding-window-causal-mask.js';

/** Options of {@link decoderMask}. */
export interface DecoderMaskOptions {
  /** Bool `[B, 1, 1, S]`, true = a real token (`paddingMaskFromIds(attention_mask)`); left padding included. Absent: no padding. */
  readonly padding?: Tensor | undefined;
  /** Mistral / Qwen2 `sliding_window`: each query sees itself and the `slidingWindow − 1` keys before it. Absent: full causal. */
  readonly slidingWindow?: number | undefined;
  /** Query `t` is at key position `t + offset` (default `S − T`: the queries are the last T keys, as with a cache). */
  readonly offset?: number;
}

/**
 * The self-attention mask of a decoder, as transformers' `create_causal_mask` /
 * `create_sliding_window_causal_mask` build it: the causal mask (or the sliding-window one)
 * AND the padding of the keys, merged by `mergeMasks`, the one place masks are combined. Padding may
 * be on the left, as in a batch prepared for generation: a padded query row then allows no key, and
 * attention gives it zeros. With a cache, S counts the past keys and the new ones and the queries
 * are the last T positions.
 *
 * @returns bool `[B, 1, T, S]` (`[1, 1, T, S]` without padding), true = may attend
 * @example
 * decoderMask(5, 5, { padding: paddingMaskFromIds([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]) }); // [2, 1, 5, 5]
 * decoderMask(1, 9, { padding, slidingWindow: 4 }); // one step after 8 cached keys: keys 5..8, if not padding
 */
export function decoderMask(queryLength: number, keyLength: number, options: DecoderMaskOptions = {}): Tensor4D {
  const caller = 'decoderMask';
  checkInteger(queryLength, { caller, argument: 'queryLength', min: 1 });
  checkInteger(keyLength, { caller, argument: 'keyLength', min: 1 });
  const { padding, slidingWindow, offset } = checkOptionKeys(checkObject(options, { caller, argument: 'options' }), ['padding', 'slidingWindow', 'offset'], caller);
  if (padding !== undefined) {
    const mask = checkBoolMask(padding, caller, 'padding', 4);
    const [, heads, rows, keys] = mask.shape;
    if (heads !== 1 || rows !== 1 || keys !== keyLength) {
      throw new InvalidArgumentError({
        caller,
        argument: 'padding',
        expected: `a key padding mask [B, 1, 1, S] with S = keyLength = ${keyLength}`,
        received: formatShape(mask.shape),
        hint: 'Build it with paddingMaskFromIds(attentionMask) from the [B, S] attention_mask of every key, past ones included.',
      });
    }
  }
  const causalOptions = offset === undefined ? {} : { offset };
  const causal = slidingWindow === undefined ? causalMask(queryLength, keyLength, causalOptions) : slidingWindowCausalMask(queryLength, keyLength, slidingWindow, causalOptions);
  if (padding === undefined) return causal; // [1, 1, T, S]
  try {
    return mergeMasks(padding, causal) as Tensor4D; // [B, 1, 1, S] & [1, 1, T, S] -> [B, 1, T, S]
  } finally {
    causal.dispose();
  }
}
