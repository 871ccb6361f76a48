import type { DecoderCheckpointKeys } from '../decoder/decoder-checkpoint-keys.js';

/**
 * GPT-2's checkpoint names: `transformer.*` in a `GPT2LMHeadModel` folder, no prefix in the original
 * `gpt2` folders (saved from `GPT2Model`); the causal-mask buffers `attn.bias` and `attn.masked_bias`
 * of old checkpoints skipped; the `Conv1D` weights (`c_attn`, `c_proj`, `c_fc`), stored `[in, out]`,
 * transposed to the `[out, in]` of attnkit's `Linear` (so they run on its float32 and int8 kernels).
 */
export const GPT2_CHECKPOINT_KEYS: DecoderCheckpointKeys = {
  basePath: 'transformer',
  buffers: /(^|\.)attn\.(bias|masked_bias)$/,
  transposed: /(^|\.)(attn\.c_attn|attn\.c_proj|mlp\.c_fc|mlp\.c_proj)\.weight$/,
};
