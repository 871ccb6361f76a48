import { tensor, type Tensor } from '@tensorflow/tfjs-core';
import { checkObject, checkOptionKeys, describeValue, formatShape, InvalidArgumentError, isTensorLike, summarizeList } from '@attnkit/errors';
import { attentionWeightShapes } from './attention-weight-shapes.js';
import type { MultiHeadAttentionConfig } from './multi-head-attention-config.js';
import { resolveAttentionConfig } from './resolve-attention-config.js';
import { readSafetensors } from '@attnkit/hub';
import { checkScorer } from '@attnkit/scorers';

/** A PyTorch state dict: tensors by name, or the bytes of a `.safetensors` file. */
export type TorchStateDict = Readonly<Record<string, Tensor>> | Uint8Array | ArrayBuffer;

/** Options of `MultiHeadAttention.fromTorchStateDict` (everything the weights cannot tell). */
export interface FromTorchOptions extends Omit<MultiHeadAttentionConfig, 'embedDim' | 'keyDim' | 'valueDim' | 'bias' | 'projections' | 'seed'> {
  /** Key prefix to strip, e.g. `'encoder.self_attn.'`. */
  readonly prefix?: string;
}

/**
 * The `MultiHeadAttention` config (widths, projections, bias) a PyTorch `nn.MultiheadAttention`
 * state dict describes, checked name by name and shape by shape, and its `checkpoint` (the weights
 * by attnkit's keys, the prefix stripped). `temporaries` are tensors decoded from safetensors bytes:
 * dispose them once the weights are copied.
 *
 * @example
 * const { config, checkpoint, temporaries } = fromTorchStateDict(stateDict, { numHeads: 3 });
 * const mha = new MultiHeadAttention(config, checkpoint);
 */
export function fromTorchStateDict(stateDict: TorchStateDict, options: FromTorchOptions): { config: MultiHeadAttentionConfig; checkpoint: Record<string, Tensor>; temporaries: Tensor[] } {
  const caller = 'MultiHeadAttention.fromTorchStateDict';
  checkObject(options, { caller, argument: 'options', expected: 'an object { numHeads, prefix?, ... }' });
  checkOptionKeys(options, ['numHeads', 'dropout', 'scorer', 'layout', 'prefix'], caller); // the widths, bias and projections come from the weights
  if (!(stateDict instanceof Uint8Array || stateDict instanceof ArrayBuffer) && (typeof stateDict !== 'object' || stateDict === null || Array.isArray(stateDict))) throw new InvalidArgumentError({ caller, argument: 'stateDict', expected: 'safetensors bytes or an object of name → tensor', received: describeValue(stateDict) });
  const prefix = options.prefix === undefined ? '' : options.prefix;
  if (typeof prefix !== 'string') throw new InvalidArgumentError({ caller, argument: 'prefix', expected: "a key prefix to strip (a string such as 'encoder.self_attn.')", received: describeValue(prefix) });
  if (options.scorer !== undefined) checkScorer(options.scorer, caller, 'scorer'); // the layer would refuse it later; the config must not carry it
  const named = new Map<string, Tensor>();
  const owned: Tensor[] = [];
  if (stateDict instanceof Uint8Array || stateDict instanceof ArrayBuffer) {
    for (const [name, entry] of readSafetensors(stateDict).tensors) {
      const t = tensor(entry.values, entry.shape as number[]);
      owned.push(t);
      named.set(name, t);
    }
  } else if (typeof stateDict === 'object' && stateDict !== null) {
    for (const [name, value] of Object.entries(stateDict)) {
      if (!isTensorLike(value)) throw new InvalidArgumentError({ caller, argument: `stateDict['${name}']`, expected: 'a tensor', received: typeof value });
      named.set(name, value);
    }
  } else {
    throw new InvalidArgumentError({ caller, argument: 'stateDict', expected: 'a record of tensors or the bytes of a .safetensors file', received: describeValue(stateDict) });
  }
  try {
    return { ...configFrom(named, options, caller, prefix), temporaries: owned };
  } catch (error) {
    owned.forEach((t) => t.dispose());
    throw error;
  }
}

function configFrom(named: Map<string, Tensor>, options: FromTorchOptions, caller: string, prefix: string): { config: MultiHeadAttentionConfig; checkpoint: Record<string, Tensor> } {
  const { prefix: _stripped, ...layerOptions } = options; // everything but the prefix configures the layer
  {
    const weights = Object.create(null) as Record<string, Tensor>; // keys come from a file: "__proto__" or "constructor" stay plain keys
    for (const [name, value] of named) if (name.startsWith(prefix)) weights[name.slice(prefix.length)] = value;
    const out = weights['out_proj.weight'];
    if (out === undefined) {
      throw new InvalidArgumentError({ caller, argument: 'stateDict', expected: `an nn.MultiheadAttention state dict with '${prefix}out_proj.weight'`, received: `keys ${[...named.keys()].slice(0, 8).join(', ') || 'none'}` });
    }
    const separate = weights['in_proj_weight'] === undefined;
    const config: MultiHeadAttentionConfig = {
      ...layerOptions,
      embedDim: out.shape[0] as number,
      keyDim: separate ? (weights['k_proj_weight']?.shape[1] ?? (out.shape[0] as number)) : (out.shape[0] as number),
      valueDim: separate ? (weights['v_proj_weight']?.shape[1] ?? (out.shape[0] as number)) : (out.shape[0] as number),
      bias: weights['in_proj_bias'] !== undefined || weights['out_proj.bias'] !== undefined, // either present: the other one must be too
      projections: separate ? 'separate' : 'fused',
    };
    const shapes = attentionWeightShapes(resolveAttentionConfig(config, caller));
    const problems = [
      ...Object.keys(shapes).filter((n) => weights[n] === undefined).map((n) => `missing ${prefix}${n} ${formatShape(shapes[n]!)}`),
      ...Object.keys(weights).filter((n) => !Object.hasOwn(shapes, n)).map((n) => `unexpected ${prefix}${n} (attnkit has no such weight; add_bias_kv and add_zero_attn are not supported)`),
      ...Object.entries(shapes)
        .filter(([n, s]) => weights[n] !== undefined && formatShape(weights[n]!.shape) !== formatShape(s))
        .map(([n, s]) => `${prefix}${n} is ${formatShape(weights[n]!.shape)}, expected ${formatShape(s)}`),
    ];
    if (problems.length > 0) {
      throw new InvalidArgumentError({ caller, argument: 'stateDict', expected: `the weights of nn.MultiheadAttention(embed_dim=${config.embedDim}, num_heads=${config.numHeads})`, received: summarizeList(problems, 8, '; ') });
    }
    return { config, checkpoint: Object.fromEntries(Object.keys(shapes).map((n) => [n, weights[n]!])) };
  }
}
