import type { Tensor } from '@tensorflow/tfjs-core';
import { checkBoolean, checkObject, checkOptionKeys, checkTensor } from '@attnkit/errors';
import type { LayerCallOptions } from './encoder-forward.js';

/**
 * Checks the arguments of an encoder layer's (or its attention's) `forward` as a caller gives them:
 * `hidden` a float32 `[B, T, E]` tensor, `mask` absent or a bool tensor (true = may attend), `bias`
 * absent or a float32 tensor added to the scores, `options` `{ outputAttentions? }` with a boolean.
 * Shapes beyond the rank are the attention's to check. Reads no values.
 *
 * @example
 * checkLayerCall('BertLayer.forward', hidden, mask, bias, options);
 */
export function checkLayerCall(caller: string, hidden: unknown, mask: unknown, bias: unknown, options: LayerCallOptions): void {
  checkTensor(hidden, { caller, argument: 'hidden', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
  if (mask !== undefined) checkTensor(mask, { caller, argument: 'mask', dtype: 'bool', shape: 'broadcastable to [B, H, T, T] (true = may attend)' });
  if (bias !== undefined) checkTensor(bias, { caller, argument: 'bias', dtype: 'float32', shape: 'broadcastable to [B, H, T, T]' });
  checkOptionKeys(options, ['outputAttentions'], caller);
  checkBoolean(options.outputAttentions, { caller, argument: 'outputAttentions', fallback: false });
}

/**
 * Checks rotary tables `{ cos, sin }` given to a layer: two float32 tensors of one shape (`[B, T, D]`,
 * `[T, D]`, ...). Reads no values.
 *
 * @example
 * checkRotaryTables('RoFormerLayer.forward', 'rotary', rotary);
 */
export function checkRotaryTables(caller: string, argument: string, tables: unknown): { readonly cos: Tensor; readonly sin: Tensor } {
  const { cos, sin } = checkObject(tables, { caller, argument, expected: 'rotary tables { cos, sin } (float32 tensors [B, T, D])' }) as { cos?: unknown; sin?: unknown };
  const shape = '[B, T, D] (the rotary tables at the positions)';
  return { cos: checkTensor(cos, { caller, argument: `${argument}.cos`, dtype: 'float32', shape }), sin: checkTensor(sin, { caller, argument: `${argument}.sin`, dtype: 'float32', shape }) };
}
