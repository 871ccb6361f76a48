import { checkBoolean, checkInteger, checkObject, describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { MultiHeadAttentionConfig, ResolvedAttentionConfig } from './multi-head-attention-config.js';

/**
 * Checks a `MultiHeadAttention` config and fills in its defaults.
 *
 * @example
 * resolveAttentionConfig({ embedDim: 12, numHeads: 3 }); // { headDim: 4, projections: 'fused', ... }
 */
export function resolveAttentionConfig(config: MultiHeadAttentionConfig, caller = 'MultiHeadAttention'): ResolvedAttentionConfig {
  checkObject(config, { caller, argument: 'config', expected: 'a MultiHeadAttentionConfig object ({ embedDim, numHeads, ... })' });
  const embedDim = checkInteger(config.embedDim, { caller, argument: 'embedDim', min: 1 });
  const numHeads = checkInteger(config.numHeads, { caller, argument: 'numHeads', min: 1 });
  if (embedDim % numHeads !== 0) {
    throw new InvalidArgumentError({
      caller,
      argument: 'embedDim',
      expected: `divisible by numHeads = ${numHeads}`,
      received: `embedDim=${embedDim}`,
      hint: `Each head gets embedDim / numHeads dims; try numHeads = ${[1, 2, 3, 4, 6, 8, 12, 16].filter((h) => embedDim % h === 0).join(', ')}.`,
    });
  }
  const keyDim = checkInteger(config.keyDim === undefined ? embedDim : config.keyDim, { caller, argument: 'keyDim', min: 1 });
  const valueDim = checkInteger(config.valueDim === undefined ? embedDim : config.valueDim, { caller, argument: 'valueDim', min: 1 });
  const sameWidths = keyDim === embedDim && valueDim === embedDim;
  const projections = config.projections === undefined ? (sameWidths ? 'fused' : 'separate') : config.projections;
  if (projections !== 'fused' && projections !== 'separate') {
    throw new InvalidArgumentError({ caller, argument: 'projections', expected: "'fused' or 'separate'", received: describeValue(projections) });
  }
  if (projections === 'fused' && !sameWidths) {
    throw new InvalidArgumentError({
      caller,
      argument: 'projections',
      expected: "'separate' when keyDim or valueDim differ from embedDim (one in_proj_weight needs equal widths)",
      received: `'fused' with embedDim=${embedDim}, keyDim=${keyDim}, valueDim=${valueDim}`,
    });
  }
  const dropout = config.dropout === undefined ? 0 : config.dropout;
  if (typeof dropout !== 'number' || !(dropout >= 0 && dropout < 1)) {
    throw new InvalidArgumentError({ caller, argument: 'dropout', expected: 'a rate in [0, 1)', received: describeValue(dropout) });
  }
  const layout = config.layout === undefined ? 'batch-first' : config.layout;
  if (layout !== 'batch-first' && layout !== 'seq-first') {
    throw new InvalidArgumentError({ caller, argument: 'layout', expected: "'batch-first' or 'seq-first'", received: describeValue(layout) });
  }
  return { embedDim, numHeads, headDim: embedDim / numHeads, keyDim, valueDim, bias: checkBoolean(config.bias, { caller, argument: 'bias', fallback: true }), dropout, projections, layout };
}
