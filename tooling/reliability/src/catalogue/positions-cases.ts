import { ones, scalar, tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { DecoderAttention, HeadProjection, KvCache, MultiHeadAttention, RotaryEmbedding, applyRotary, groupedQueryAttention, mergeHeads, positionIdsFromMask, repeatKv, scaledDotProductAttention, splitHeads } from '@attnkit/attention';
import { causalMask, decoderMask, fromAdditiveMask, maskToBias, maskedSoftmax, paddingMask, paddingMaskFromIds, slidingWindowCausalMask } from '@attnkit/masks';
import { Embedding, FeedForward, GatedFeedForward, LayerNorm, Linear, RMSNorm, gatherRows, layerNorm, linear, rmsNorm } from '@attnkit/nn';
import { AdditiveScorer, BilinearScorer, SelfAttentionScorer, attentionPooling, dotProductScorer } from '@attnkit/scorers';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'AttnkitError';
const A = 'argument positions';

/** A module the call builds and disposes; its forward is the call. */
interface Disposable { dispose(): void }

/**
 * One valid call of a public function or method: `args` makes fresh valid arguments, `call` makes the
 * call. Each argument position in turn (and each key of the options object at `options`) is replaced
 * by each hostile value; the rest stay valid, so the check that must fire is the one of that position.
 */
export interface ValidCall {
  readonly name: string;
  readonly args: () => unknown[];
  readonly call: (args: unknown[]) => unknown;
  /** Positions whose absence (`undefined`) is valid: an optional argument left out. */
  readonly optional?: readonly number[];
  /** The options object's position and its keys (each key gets the option hostiles). */
  readonly options?: { readonly index: number; readonly keys: readonly string[] };
  /** `'position:label'` or `'key:label'` → why that value is valid input there. */
  readonly accepted?: Readonly<Record<string, string>>;
}

/** Hostile values for an argument position (made fresh per run; tensors disposed after). */
const POSITION_HOSTILES: ReadonlyArray<readonly [string, () => unknown]> = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['NaN', () => NaN],
  ['{}', () => ({})],
  ['"x"', () => 'x'],
  ['a sparse array [1, , 1]', () => [1, , 1]], // eslint-disable-line no-sparse-arrays
  ['a disposed tensor', () => { const t = zeros([2, 3]); t.dispose(); return t; }],
  ['an int32 tensor', () => tensor([[1, 2, 3]], [1, 3], 'int32')],
  ['a rank-0 float tensor', () => scalar(1)],
];
/** Hostile values for one key of an options object. */
const OPTION_HOSTILES: ReadonlyArray<readonly [string, () => unknown]> = [
  ['null', () => null],
  ['NaN', () => NaN],
  ['"x"', () => 'x'],
  ['{}', () => ({})],
  ['-1', () => -1],
  ['a disposed tensor', () => { const t = zeros([2, 3]); t.dispose(); return t; }],
];

/** Runs `use` on a module built by `make`, in a tidy scope (its outputs disposed), then disposes the module. */
function withModule<M extends Disposable>(make: () => M, use: (module: M) => unknown): void {
  const module = make();
  try { tidy(() => { use(module); }); } finally { module.dispose(); }
}
/** A plain call in a tidy scope: what it returns is disposed. */
function tidyCall(fn: () => unknown): void {
  tidy(() => { fn(); });
}
function disposeAll(values: readonly unknown[]): void {
  for (const value of values) if (value !== null && typeof value === 'object' && typeof (value as { dispose?: unknown }).dispose === 'function' && !(value as { isDisposed?: boolean }).isDisposed) (value as Tensor).dispose();
}
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { dispose?: unknown }).dispose !== 'function';
}
const f = (shape: number[]) => zeros(shape);
const b = (shape: number[]) => ones(shape, 'bool');
const OFFSET = 'a negative offset is valid (documented: rows with t + offset < 0 block every key)';
const mhaConfig = { embedDim: 8, numHeads: 2, seed: 1 };
const decoderConfig = { embedDim: 8, numHeads: 2, numKeyValueHeads: 1, headDim: 4, seed: 1 };

const VALID_CALLS: readonly ValidCall[] = [
  // masks
  { name: 'masks.paddingMask', args: () => [[2, 3], 3], call: ([l, k]) => tidyCall(() => paddingMask(l as number[], k as number)) },
  { name: 'masks.paddingMaskFromIds', args: () => [[[1, 1, 0]]], call: ([m]) => tidyCall(() => paddingMaskFromIds(m as number[][])) },
  { name: 'masks.causalMask', args: () => [3, 3, {}], call: ([t, s, o]) => tidyCall(() => causalMask(t as number, s as number, o as never)), optional: [2], options: { index: 2, keys: ['offset'] }, accepted: { 'offset:-1': OFFSET } },
  { name: 'masks.slidingWindowCausalMask', args: () => [3, 3, 2, {}], call: ([t, s, w, o]) => tidyCall(() => slidingWindowCausalMask(t as number, s as number, w as number, o as never)), optional: [3], options: { index: 3, keys: ['offset'] }, accepted: { 'offset:-1': OFFSET } },
  { name: 'masks.decoderMask', args: () => [2, 3, { padding: tensor([[1, 1, 1]], [1, 3], 'int32') }], call: ([t, s, o]) => tidyCall(() => decoderMask(t as number, s as number, o as never)), optional: [2], options: { index: 2, keys: ['padding', 'slidingWindow', 'offset'] } },
  { name: 'masks.maskToBias', args: () => [b([2, 3]), {}], call: ([m, o]) => tidyCall(() => maskToBias(m as Tensor, o as never)), optional: [1], options: { index: 1, keys: ['fillValue'] }, accepted: { 'fillValue:-1': 'a negative fill value finite in float32 (documented)' } },
  { name: 'masks.fromAdditiveMask', args: () => [f([2, 3]), {}], call: ([m, o]) => tidyCall(() => fromAdditiveMask(m as Tensor, o as never)), optional: [1], options: { index: 1, keys: ['threshold'] }, accepted: { 'threshold:-1': 'a threshold ≤ -1 (documented: the largest value read as blocked)' } },
  { name: 'masks.maskedSoftmax', args: () => [f([2, 3]), b([2, 3])], call: ([s, m]) => tidyCall(() => maskedSoftmax(s as Tensor, m as Tensor)), optional: [1] },
  // scorers
  { name: 'scorers.dotProductScorer.score', args: () => [f([2, 4, 8]), f([2, 5, 8])], call: ([q, k]) => tidyCall(() => dotProductScorer.score(q as Tensor, k as Tensor)) },
  { name: 'scorers.AdditiveScorer.score', args: () => [f([2, 4, 8]), f([2, 5, 8])], call: ([q, k]) => withModule(() => new AdditiveScorer({ queryDim: 8, keyDim: 8, hiddenDim: 4, seed: 1 }), (s) => s.score(q as Tensor, k as Tensor)) },
  { name: 'scorers.BilinearScorer.score', args: () => [f([2, 4, 8]), f([2, 5, 8])], call: ([q, k]) => withModule(() => new BilinearScorer({ queryDim: 8, keyDim: 8, seed: 1 }), (s) => s.score(q as Tensor, k as Tensor)) },
  { name: 'scorers.SelfAttentionScorer.score', args: () => [f([2, 4, 8]), f([2, 4, 8])], call: ([q, k]) => withModule(() => new SelfAttentionScorer({ embedDim: 8, seed: 1 }), (s) => s.score(q as Tensor, k as Tensor)) },
  { name: 'scorers.attentionPooling', args: () => [dotProductScorer, f([2, 5, 8]), b([2, 5]), f([2, 8])], call: ([s, v, m, q]) => tidyCall(() => attentionPooling(s as never, v as Tensor, m as Tensor, q as Tensor)), optional: [2] },
  // attention
  { name: 'attention.scaledDotProductAttention', args: () => [f([2, 2, 4, 4]), f([2, 2, 5, 4]), f([2, 2, 5, 4]), {}], call: ([q, k, v, o]) => tidyCall(() => scaledDotProductAttention(q as Tensor, k as Tensor, v as Tensor, o as never)), optional: [3],
    options: { index: 3, keys: ['mask', 'bias', 'scorer', 'dropout', 'training', 'seed'] }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'attention.groupedQueryAttention', args: () => [f([2, 4, 4, 4]), f([2, 2, 5, 4]), f([2, 2, 5, 4]), {}], call: ([q, k, v, o]) => tidyCall(() => groupedQueryAttention(q as Tensor, k as Tensor, v as Tensor, o as never)), optional: [3],
    options: { index: 3, keys: ['mask', 'bias', 'dropout', 'training', 'seed'] }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'attention.splitHeads', args: () => [f([2, 5, 8]), 2], call: ([x, h]) => tidyCall(() => splitHeads(x as Tensor, h as number)) },
  { name: 'attention.mergeHeads', args: () => [f([2, 2, 5, 4])], call: ([x]) => tidyCall(() => mergeHeads(x as Tensor)) },
  { name: 'attention.repeatKv', args: () => [f([2, 2, 5, 4]), 2], call: ([x, n]) => tidyCall(() => repeatKv(x as Tensor, n as number)) },
  { name: 'attention.applyRotary', args: () => [f([1, 2, 3, 4]), f([1, 1, 3, 4]), f([1, 3, 4]), f([1, 3, 4])], call: ([q, k, c, s]) => tidyCall(() => applyRotary(q as Tensor, k as Tensor, c as Tensor, s as Tensor)) },
  { name: 'attention.positionIdsFromMask', args: () => [[[0, 1, 1]]], call: ([m]) => tidyCall(() => positionIdsFromMask(m as number[][])) },
  { name: 'attention.MultiHeadAttention.forward', args: () => [f([2, 4, 8]), f([2, 5, 8]), f([2, 5, 8]), {}], call: ([q, k, v, o]) => withModule(() => new MultiHeadAttention(mhaConfig), (m) => m.forward(q as Tensor, k as Tensor, v as Tensor, o as never)), optional: [1, 2, 3],
    options: { index: 3, keys: ['attentionMask', 'attentionBias', 'returnWeights', 'training', 'seed'] },
    accepted: { '2:undefined': 'value = key (documented)', 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'attention.HeadProjection.forward', args: () => [f([2, 5, 12])], call: ([x]) => withModule(() => new HeadProjection({ inputDim: 12, numHeads: 3, headDim: 4, seed: 1 }), (m) => m.forward(x as Tensor)) },
  { name: 'attention.RotaryEmbedding.forward', args: () => [tensor([[0, 1, 2]], [1, 3], 'int32')], call: ([p]) => withModule(() => new RotaryEmbedding({ headDim: 4 } as never), (m) => { const r = m.forward(p as Tensor); return [r.cos, r.sin]; }), accepted: { '0:an int32 tensor': 'int32 position ids [1, 3] are valid input' } },
  { name: 'attention.DecoderAttention.forward', args: () => [f([1, 3, 8]), {}], call: ([x, o]) => withModule(() => new DecoderAttention(decoderConfig as never), (m) => m.forward(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['positionEmbeddings', 'attentionMask', 'cache', 'layerIndex', 'inputNorm', 'residual'] } },
  { name: 'attention.KvCache.step', args: () => [[[1, 1]], {}], call: ([m, o]) => { const cache = new KvCache({ numLayers: 1, maxLength: 4 }); try { const s = cache.step(m as number[][], o as never); s.positionIds.dispose(); s.attentionMask.dispose(); } finally { cache.dispose(); } }, optional: [1],
    options: { index: 1, keys: ['slidingWindow'] } },
  // nn
  { name: 'nn.linear', args: () => [f([2, 3]), f([4, 3]), f([4])], call: ([x, w, bias]) => tidyCall(() => linear(x as Tensor, w as Tensor, bias as Tensor)), optional: [2] },
  { name: 'nn.layerNorm', args: () => [f([2, 3]), ones([3]), zeros([3]), 1e-5], call: ([x, w, bias, eps]) => tidyCall(() => layerNorm(x as Tensor, w as Tensor, bias as Tensor, eps as number)), optional: [1, 2] },
  { name: 'nn.rmsNorm', args: () => [f([2, 3]), ones([3]), 1e-6], call: ([x, w, eps]) => tidyCall(() => rmsNorm(x as Tensor, w as Tensor, eps as number)), optional: [1] },
  { name: 'nn.gatherRows', args: () => [f([4, 3]), tensor([0, 2], [2], 'int32')], call: ([x, i]) => tidyCall(() => gatherRows(x as Tensor, i as Tensor)) },
  { name: 'nn.Linear', args: () => [3, 4, {}], call: ([i, o, opts]) => withModule(() => new Linear(i as number, o as number, opts as never), () => undefined), optional: [2], options: { index: 2, keys: ['bias', 'seed']  }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'nn.Linear.forward', args: () => [f([2, 3]), {}], call: ([x, o]) => withModule(() => new Linear(3, 4, { seed: 1 }), (m) => m.forward(x as Tensor, o as never)), optional: [1], options: { index: 1, keys: ['activation', 'residualLayerNorm', 'residual'] } },
  { name: 'nn.Embedding', args: () => [10, 4, {}], call: ([n, d, o]) => withModule(() => new Embedding(n as number, d as number, o as never), () => undefined), optional: [2], options: { index: 2, keys: ['paddingIdx', 'seed']  }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'nn.Embedding.forward', args: () => [tensor([[1, 2]], [1, 2], 'int32')], call: ([ids]) => withModule(() => new Embedding(10, 4, { seed: 1 }), (m) => m.forward(ids as Tensor)), accepted: { '0:an int32 tensor': 'int32 ids [1, 3] below numEmbeddings are valid input' } },
  { name: 'nn.LayerNorm', args: () => [4, {}], call: ([n, o]) => withModule(() => new LayerNorm(n as number, o as never), () => undefined), optional: [1], options: { index: 1, keys: ['eps', 'elementwiseAffine'] } },
  { name: 'nn.LayerNorm.forward', args: () => [f([2, 4])], call: ([x]) => withModule(() => new LayerNorm(4), (m) => m.forward(x as Tensor)) },
  { name: 'nn.RMSNorm', args: () => [4, {}], call: ([n, o]) => withModule(() => new RMSNorm(n as number, o as never), () => undefined), optional: [1], options: { index: 1, keys: ['eps'] } },
  { name: 'nn.RMSNorm.forward', args: () => [f([2, 4])], call: ([x]) => withModule(() => new RMSNorm(4), (m) => m.forward(x as Tensor)) },
  { name: 'nn.FeedForward', args: () => [{ embedDim: 4, feedForwardDim: 8, seed: 1 }], call: ([c]) => withModule(() => new FeedForward(c as never), () => undefined), options: { index: 0, keys: ['embedDim', 'feedForwardDim', 'activation', 'dropout', 'seed']  }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'nn.FeedForward.forward', args: () => [f([2, 4])], call: ([x]) => withModule(() => new FeedForward({ embedDim: 4, feedForwardDim: 8, seed: 1 }), (m) => m.forward(x as Tensor)) },
  { name: 'nn.GatedFeedForward.forward', args: () => [f([2, 4]), {}], call: ([x, o]) => withModule(() => new GatedFeedForward({ embedDim: 4, feedForwardDim: 8, seed: 1 }), (m) => m.forward(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['inputNorm', 'residual'] } },
  { name: 'nn.GatedFeedForward', args: () => [{ embedDim: 4, feedForwardDim: 8, seed: 1 }], call: ([c]) => withModule(() => new GatedFeedForward(c as never), () => undefined), options: { index: 0, keys: ['embedDim', 'feedForwardDim', 'activation', 'bias', 'seed']  }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
  { name: 'attention.MultiHeadAttention', args: () => [{ ...mhaConfig }], call: ([c]) => withModule(() => new MultiHeadAttention(c as never), () => undefined), options: { index: 0, keys: ['embedDim', 'numHeads', 'keyDim', 'valueDim', 'bias', 'dropout', 'scorer', 'projections', 'layout', 'seed']  }, accepted: { 'seed:-1': 'any integer seed is a seed (as torch.manual_seed takes negative ones)' } },
];

/** How many arguments `call` destructures (`([x, w, bias]) => ...`: 3), read without making tensors at import. */
function arity(valid: ValidCall): number {
  const names = /^\(\[([^\]]*)\]\)/.exec(Function.prototype.toString.call(valid.call))?.[1];
  if (names === undefined) throw new Error(`${valid.name}: call must destructure its arguments as ([a, b, ...]) => ...`);
  return names.split(',').length;
}

/** The hostile variants of one valid call: every position, then every option key. */
export function variants(valid: ValidCall): CatalogueCase[] {
  const cases: CatalogueCase[] = [];
  const width = arity(valid);
  const make = (label: string, input: string, mutate: (args: unknown[]) => unknown) => {
    const run = async () => {
      const args = valid.args();
      const made = [...args, ...args.flatMap((a) => (isPlainObject(a) ? Object.values(a) : []))]; // every valid tensor, options' included
      let hostile: unknown;
      try {
        hostile = mutate(args);
        await valid.call(args); // an async call (semanticSearch) is awaited before its inputs are disposed
        return 'accepted';
      } finally {
        disposeAll([...made, hostile]);
      }
    };
    const reason = valid.accepted?.[label];
    cases.push(reason === undefined ? rejects(A, input, E, /^[^]{10,1000}$/, run) : safely(A, input, `accepted: ${reason}`, run, (v) => v === 'accepted'));
  };
  for (let position = 0; position < width; position += 1) {
    for (const [label, value] of POSITION_HOSTILES) {
      if (label === 'undefined' && valid.optional?.includes(position) && valid.accepted?.[`${position}:undefined`] === undefined) continue; // an optional argument left out is the plain call
      if (valid.options?.index === position && label === '{}') continue; // an empty options object is the plain call
      make(`${position}:${label}`, `${valid.name} argument ${position + 1} = ${label}`, (args) => { args[position] = value(); return args[position]; });
    }
  }
  for (const key of valid.options?.keys ?? []) {
    for (const [label, value] of OPTION_HOSTILES) {
      make(`${key}:${label}`, `${valid.name} option ${key} = ${label}`, (args) => {
        const index = valid.options!.index;
        const options = { ...(args[index] as object) } as Record<string, unknown>;
        options[key] = value();
        args[index] = options;
        return options[key];
      });
    }
  }
  return cases;
}

/**
 * Every argument position and every option key of the tensor blocks' public calls (functions,
 * constructors, `forward` and `score` methods), each given each hostile value while the other
 * arguments stay valid: a typed error naming that argument, or a documented acceptance.
 */
export const positionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
