import { add, cast, expandDims, less, range, reshape, tidy, where, zerosLike, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { firstCountedPosition } from './counted-positions.js';
import { POOLING_MODES, poolModes, type PoolingMode } from './pooling-modes.js';

/** A sentence-transformers `Pooling` module's `config.json`, read. */
export interface PoolingConfig {
  /** Width of the token embeddings it pools (`embedding_dimension`). */
  readonly embeddingDimension: number;
  /** The modes, concatenated in this order. */
  readonly modes: readonly PoolingMode[];
  /** `false`: tokens of a prompt are left out of the pooling. */
  readonly includePrompt: boolean;
}

const LEGACY_MODES: ReadonlyArray<[string, PoolingMode]> = [
  ['pooling_mode_cls_token', 'cls'], ['pooling_mode_max_tokens', 'max'], ['pooling_mode_mean_tokens', 'mean'],
  ['pooling_mode_mean_sqrt_len_tokens', 'mean_sqrt_len_tokens'], ['pooling_mode_weightedmean_tokens', 'weightedmean'], ['pooling_mode_lasttoken', 'lasttoken'],
];

/**
 * Reads a `Pooling` module's `config.json`: `embedding_dimension` (or the older
 * `word_embedding_dimension`), `pooling_mode` (a mode or a list of modes; or the older
 * `pooling_mode_*_token(s)` booleans, mean when none is set) and `include_prompt`.
 *
 * @example
 * parsePoolingConfig({ embedding_dimension: 384, pooling_mode: 'cls' }); // { embeddingDimension: 384, modes: ['cls'], includePrompt: true }
 */
export function parsePoolingConfig(json: unknown, caller = 'parsePoolingConfig'): PoolingConfig {
  caller = typeof caller === 'string' ? caller : 'parsePoolingConfig'; // a caller only names the function in messages
  const fail = (argument: string, expected: string, received: unknown): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received: JSON.stringify(received) ?? String(received) });
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('config', 'a JSON object (the Pooling config.json)', json);
  const raw = new Map(Object.entries(json as object));
  const width = raw.get('embedding_dimension') ?? raw.get('word_embedding_dimension');
  if (typeof width !== 'number' || !Number.isInteger(width) || width < 1) fail('embedding_dimension', 'a positive integer', width);
  let modes: unknown = raw.get('pooling_mode');
  if (modes === undefined) {
    modes = LEGACY_MODES.filter(([key]) => raw.get(key) === true).map(([, mode]) => mode);
    if ((modes as unknown[]).length === 0) modes = ['mean'];
  }
  const list = typeof modes === 'string' ? [modes] : modes;
  if (!Array.isArray(list) || list.length === 0 || list.some((m) => !(POOLING_MODES as readonly unknown[]).includes(m))) {
    fail('pooling_mode', `one of ${POOLING_MODES.map((m) => `"${m}"`).join(', ')}, or a list of them`, modes);
  }
  const includePrompt = raw.get('include_prompt') ?? true;
  if (typeof includePrompt !== 'boolean') fail('include_prompt', 'true or false', includePrompt);
  return { embeddingDimension: width as number, modes: list as PoolingMode[], includePrompt: includePrompt as boolean };
}

/**
 * sentence-transformers' `Pooling`: token embeddings to one vector per text by the folder's
 * modes (concatenated when several), leaving a prompt's tokens out when `includePrompt` is false.
 * `tokens [B, T, E]`, `attentionMask [B, T]` (0/1) → `[B, modes · E]` (a `Tensor2D`).
 *
 * @example
 * const pooling = new Pooling({ embeddingDimension: 384, modes: ['mean'], includePrompt: true });
 * const sentences = pooling.forward(lastHiddenState, attentionMask); // [B, 384]
 */
export class Pooling {
  readonly config: PoolingConfig;

  constructor(config: PoolingConfig) {
    checkObject(config, { caller: 'Pooling', argument: 'config', expected: 'a parsed Pooling config (parsePoolingConfig)' });
    if (!Array.isArray(config.modes) || config.modes.length === 0 || !config.modes.every((m) => (POOLING_MODES as readonly unknown[]).includes(m))) throw new InvalidArgumentError({ caller: 'Pooling', argument: 'config.modes', expected: `a non-empty list of ${POOLING_MODES.map((m) => `'${m}'`).join(', ')}`, received: describeValue(config.modes) });
    this.config = config;
  }

  /** Width of the output: `modes · embeddingDimension`. */
  get outputDimension(): number {
    return this.config.modes.length * this.config.embeddingDimension;
  }

  /** `promptLength`: the tokens of the prompt (with a leading special token) that start every row; dropped when `includePrompt` is false. */
  forward(tokens: Tensor, attentionMask: Tensor, promptLength = 0): Tensor2D {
    const caller = 'Pooling.forward';
    checkTensor(tokens, { caller, argument: 'tokens', dtype: 'float32', rank: 3, shape: '[B, T, E]' });
    checkTensor(attentionMask, { caller, argument: 'attentionMask', rank: 2, shape: '[B, T]' });
    const [batch, length, width] = tokens.shape;
    if (attentionMask.shape[0] !== batch || attentionMask.shape[1] !== length) throw new InvalidArgumentError({ caller, argument: 'attentionMask', expected: `[B, T] = ${formatShape(tokens.shape.slice(0, 2))}`, received: formatShape(attentionMask.shape) });
    checkInteger(promptLength, { caller, argument: 'promptLength', min: 0 });
    if (width !== this.config.embeddingDimension) throw new InvalidArgumentError({ caller, argument: 'tokens', expected: `[B, T, E] with E = embedding_dimension ${this.config.embeddingDimension}`, received: formatShape(tokens.shape) });
    return tidy(() => {
      let mask = cast(attentionMask, 'float32'); // [B, T]
      if (!this.config.includePrompt && promptLength > 0) {
        // positions before (left padding + prompt) stop counting
        const start = expandDims(add(firstCountedPosition(mask), promptLength), 1); // [B, 1]
        const before = less(reshape(range(0, length as number, 1, 'int32'), [1, -1]), start); // [B, T]
        mask = where(before, zerosLike(mask), mask);
      }
      return poolModes(this.config.modes, tokens, mask) as Tensor2D; // [B, T, E] -> [B, modes · E]
    });
  }
}
