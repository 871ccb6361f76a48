import { memory, tensor, tidy, zeros } from '@tensorflow/tfjs-core';
import { TransformerEncoderLayer } from '@attnkit/attention';
import { Embedding, GatedFeedForward, LayerNorm, Linear, Module, ModuleDict, RMSNorm, activationByName, rmsNorm } from '@attnkit/nn';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
/** Builds a module, runs `use` on it, disposes it. */
function using<M extends Module, T>(make: () => M, use: (m: M) => T): T {
  const m = make();
  try { return tidy(() => use(m) as never) as T; } finally { if (!m.isDisposed) m.dispose(); }
}

/** Layers (`@attnkit/nn`) and the encoder layer: configs, inputs, state dicts. */
export const nnCases: CatalogueCase[] = [
  rejects('nn', 'Linear fed the wrong width', E, "Linear.forward: 'x' must be a float32 tensor [..., inFeatures] with inFeatures = 4; received [2, 3].", () => using(() => new Linear(4, 2), (l) => l.forward(zeros([2, 3])))),
  rejects('nn', 'Embedding id out of range', E, "Embedding.forward: 'ids' must be ids in [0, numEmbeddings = 5); received 5 at flat index 1.", () => using(() => new Embedding(5, 2), (e) => e.forward(tensor([0, 5], undefined, 'int32')))),
  rejects('nn', 'unknown activation name', E, /^activationByName: 'activation' must be one of gelu, .*, or a function; received string 'swiglu'\.$/, () => activationByName('swiglu')),
  rejects('nn', 'state dict with a missing, an unexpected and a mis-shaped key', 'StateDictError', "LayerNorm.loadStateDict: the state dict does not fit the module. 1 missing: bias. 1 unexpected: gamma. 1 mis-shaped: weight (expected [3] float32, received [2] float32).",
    () => using(() => new LayerNorm(3), (n) => n.loadStateDict({ weight: zeros([2]), gamma: zeros([3]) }))),
  rejects('nn', 'ModuleDict with a dotted key (not one path segment)', E, 'ModuleDict.registerModule: \'name\' must be one path segment (no dots); received "heads.topic".',
    () => new ModuleDict({ sentiment: new Linear(2, 2), 'heads.topic': new Linear(2, 3) })),
  rejects('nn', 'module used after dispose()', 'UseAfterDisposeError', 'Linear.forward: called after dispose() freed its weights. Create a new instance instead.', () => { const l = new Linear(2, 2); l.dispose(); tidy(() => l.forward(zeros([1, 2]))); }),
  safely('nn', 'a failed load', 'assigns nothing and leaves no tensor behind', async () => {
    const norm = new LayerNorm(2);
    const given = { weight: zeros([2]), bias: zeros([3]) };
    const before = memory().numTensors;
    try { norm.loadStateDict(given); } catch { /* expected: bias is mis-shaped */ }
    const values = Array.from(await norm.weight!.data());
    const leaked = memory().numTensors - before;
    Object.values(given).forEach((t) => t.dispose());
    norm.dispose();
    return { values, leaked };
  }, (v) => { const { values, leaked } = v as { values: number[]; leaked: number }; return values.every((x) => x === 1) && leaked === 0; }),
  rejects('nn', 'RMSNorm fed the wrong width', E, "RMSNorm.forward: 'x' must be a float32 tensor [..., normalizedShape] with normalizedShape = 4; received [2, 3].", () => using(() => new RMSNorm(4), (n) => n.forward(zeros([2, 3])))),
  rejects('nn', 'rmsNorm with eps 0', E, "rmsNorm: 'eps' must be a finite number > 0; received number 0.", () => tidy(() => rmsNorm(zeros([2, 3]), undefined, 0))),
  rejects('nn', 'gated feed-forward with an unknown activation', E, /^GatedFeedForward: 'activation' must be one of gelu, .*, or a function; received string 'swiglu'\.$/, () => new GatedFeedForward({ embedDim: 4, feedForwardDim: 8, activation: 'swiglu' })),
  rejects('nn', 'encoder layer given a rank-3 bias', E, /^MultiHeadAttention\.forward: 'attentionBias' must be a float32 tensor of rank 2 or 4 \[T, S\] or \[B\|1, H\|1, T\|1, S\|1\]; received float32 tensor of rank 3/,
    () => using(() => new TransformerEncoderLayer({ embedDim: 8, numHeads: 2, feedForwardDim: 8 }), (l) => l.forward(zeros([2, 5, 8]), { attentionBias: zeros([2, 5, 5]) }))),
  rejects('nn', 'encoder layer given a PyTorch mask of the wrong shape', E, "TransformerEncoderLayer.forwardTorch: 'attnMask' must be [T, S] = [5, 5]; received [5, 4].",
    () => using(() => new TransformerEncoderLayer({ embedDim: 8, numHeads: 2, feedForwardDim: 8 }), (l) => l.forwardTorch(zeros([2, 5, 8]), { mask: zeros([5, 4]) }))),
];
