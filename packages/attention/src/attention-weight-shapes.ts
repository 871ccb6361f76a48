import type { ResolvedAttentionConfig } from './multi-head-attention-config.js';
import { InvalidArgumentError, checkObject, describeValue } from '@attnkit/errors';

/**
 * The weights a `MultiHeadAttention` with this config has, by PyTorch name, with their shapes —
 * the one table that maps checkpoint names to variables.
 *
 * @example
 * attentionWeightShapes(resolveAttentionConfig({ embedDim: 12, numHeads: 3 }));
 * // { in_proj_weight: [36, 12], in_proj_bias: [36], 'out_proj.weight': [12, 12], 'out_proj.bias': [12] }
 */
export function attentionWeightShapes(config: ResolvedAttentionConfig): Record<string, number[]> {
  const { embedDim: e, keyDim, valueDim, bias } = checkObject(config, { caller: 'attentionWeightShapes', argument: 'config', expected: 'a resolved attention config (resolveAttentionConfig)' });
  if (![e, keyDim, valueDim].every((n) => Number.isInteger(n) && n > 0) || (config.projections !== 'fused' && config.projections !== 'separate')) throw new InvalidArgumentError({ caller: 'attentionWeightShapes', argument: 'config', expected: 'a resolved attention config (resolveAttentionConfig)', received: describeValue(config) });
  const shapes: Record<string, number[]> =
    config.projections === 'fused'
      ? { in_proj_weight: [3 * e, e] }
      : { q_proj_weight: [e, e], k_proj_weight: [e, keyDim], v_proj_weight: [e, valueDim] };
  if (bias) shapes['in_proj_bias'] = [3 * e];
  shapes['out_proj.weight'] = [e, e];
  if (bias) shapes['out_proj.bias'] = [e];
  return shapes;
}
