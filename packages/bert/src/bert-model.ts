import { add, concat, gather, notEqual, range, reshape, slice, squeeze, tanh, tidy, variable, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, UseAfterDisposeError, assertBackendReady, formatShape } from '@attnkit/backends';
import { MultiHeadAttention } from '@attnkit/attention';
import { linear } from '@attnkit/scorers';
import type { BertConfig } from './bert-config.js';
import { bertWeightTable } from './bert-weight-table.js';
import { checkIds, checkSequenceLength, type IdsInput } from './check-bert-inputs.js';
import { gelu } from './gelu.js';
import { layerNorm } from './layer-norm.js';


/** Inputs of {@link BertModel.forward}: `[B, T]` each, as nested arrays or int32 tensors. */
export interface BertInputs {
  readonly inputIds: IdsInput;
  /** 1 = token, 0 = padding (Hugging Face `attention_mask`). Default: all ones. */
  readonly attentionMask?: IdsInput;
  /** Segment ids (0 for the first sentence, 1 for the second). Default: all zeros. */
  readonly tokenTypeIds?: IdsInput;
  /** Return every layer's attention weights `[B, H, T, T]`. */
  readonly outputAttentions?: boolean;
  /** Return the embeddings and every layer's output `[B, T, E]` (L + 1 tensors). */
  readonly outputHiddenStates?: boolean;
}

/** Named outputs of {@link BertModel.forward}; the caller disposes them. */
export interface BertOutputs {
  /** `[B, T, E]`. */
  readonly lastHiddenState: Tensor;
  /** `[B, E]`: `tanh(dense(h[:, 0]))`. */
  readonly poolerOutput: Tensor;
  readonly hiddenStates?: Tensor[];
  readonly attentions?: Tensor[];
}

let instances = 0;

/**
 * A BERT encoder equal to Hugging Face's `BertModel` (post-LN, exact GELU), built from
 * `@attnkit/attention`. Weights keep their checkpoint names (see `bertWeightTable`).
 *
 * @example
 * const model = await loadBert('path/to/bert-folder');
 * const { lastHiddenState, poolerOutput } = model.forward({ inputIds, attentionMask, tokenTypeIds });
 */
export class BertModel {
  readonly config: BertConfig;
  #weights: Map<string, Variable> | undefined = new Map();
  #attention: MultiHeadAttention[] = [];

  /** `checkpoint`: tensors by Hugging Face name (no `bert.` prefix), checked against the table. */
  constructor(config: BertConfig, checkpoint: ReadonlyMap<string, Tensor>) {
    this.config = config;
    instances += 1; // variable names must be unique per engine
    const table = bertWeightTable(config);
    const problems = [
      ...table.filter((r) => !checkpoint.has(r.checkpoint)).map((r) => `missing ${r.checkpoint} ${formatShape(r.shape)}`),
      ...table.filter((r) => checkpoint.has(r.checkpoint) && formatShape(checkpoint.get(r.checkpoint)!.shape) !== formatShape(r.shape))
        .map((r) => `${r.checkpoint} is ${formatShape(checkpoint.get(r.checkpoint)!.shape)}, expected ${formatShape(r.shape)}`),
    ];
    if (problems.length > 0) {
      throw new InvalidArgumentError({ caller: 'BertModel', argument: 'checkpoint', expected: `the weights of this config (${table.length} tensors)`, received: problems.join('; ') });
    }
    for (let n = 0; n < config.numHiddenLayers; n++) {
      // query, key and value stacked into one in_proj (the table's only transform): one matMul per layer
      const part = (kind: 'weight' | 'bias') =>
        tidy(() => concat(['query', 'key', 'value'].map((q) => checkpoint.get(`encoder.layer.${n}.attention.self.${q}.${kind}`)!)));
      const [inProjWeight, inProjBias] = [part('weight'), part('bias')];
      this.#attention.push(new MultiHeadAttention({
        embedDim: config.hiddenSize,
        numHeads: config.numAttentionHeads,
        dropout: config.attentionProbsDropoutProb,
        weights: {
          in_proj_weight: inProjWeight,
          in_proj_bias: inProjBias,
          'out_proj.weight': checkpoint.get(`encoder.layer.${n}.attention.output.dense.weight`)!,
          'out_proj.bias': checkpoint.get(`encoder.layer.${n}.attention.output.dense.bias`)!,
        },
      }));
      inProjWeight.dispose();
      inProjBias.dispose();
    }
    for (const row of table) {
      if (row.module.endsWith('.attention')) continue; // held by the MultiHeadAttention above
      this.#weights!.set(row.checkpoint, variable(checkpoint.get(row.checkpoint)!, false, `bert${instances}/${row.checkpoint}`));
    }
  }

  /** Runs the encoder. Outputs are new tensors; dispose them. */
  forward(inputs: BertInputs): BertOutputs {
    const caller = 'BertModel.forward';
    const w = this.#live(caller);
    assertBackendReady(caller);
    const { vocabSize, typeVocabSize, layerNormEps: eps, numHiddenLayers } = this.config;
    const owned: Tensor[] = [];
    const take = ({ ids, created }: { ids: Tensor; created: boolean }): Tensor => (created && owned.push(ids), ids);
    try {
      const inputIds = take(checkIds(caller, 'inputIds', inputs.inputIds, vocabSize));
      const [batch = 0, length = 0] = inputIds.shape;
      checkSequenceLength(caller, this.config, length);
      const attentionMask = inputs.attentionMask === undefined ? undefined : take(checkIds(caller, 'attentionMask', inputs.attentionMask, 2, [batch, length]));
      const tokenTypeIds = inputs.tokenTypeIds === undefined ? undefined : take(checkIds(caller, 'tokenTypeIds', inputs.tokenTypeIds, typeVocabSize, [batch, length]));
      return tidy(() => {
        const p = (name: string) => w.get(name) as Tensor;

        // 1. Embeddings: word + position + token type, then LayerNorm (dropout: training only)
        const words = gather(p('embeddings.word_embeddings.weight'), inputIds); // [B, T, E]
        const positions = gather(p('embeddings.position_embeddings.weight'), range(0, length, 1, 'int32')); // [T, E]
        const types = tokenTypeIds === undefined
          ? slice(p('embeddings.token_type_embeddings.weight'), [0, 0], [1, -1]) // [1, E]: every token in segment 0
          : gather(p('embeddings.token_type_embeddings.weight'), tokenTypeIds); // [B, T, E]
        let hidden = layerNorm(add(add(words, positions), types), p('embeddings.LayerNorm.weight'), p('embeddings.LayerNorm.bias'), eps);

        // 2. The key padding mask, built once: [B, T] 0/1 -> bool [B, 1, 1, T] (true = may attend)
        const mask = attentionMask === undefined ? undefined : reshape(notEqual(attentionMask, 0), [batch, 1, 1, length]);

        // 3. N layers: self-attention, residual + LayerNorm, feed-forward (exact GELU), residual + LayerNorm
        const hiddenStates: Tensor[] = [hidden];
        const attentions: Tensor[] = [];
        for (let n = 0; n < numHiddenLayers; n++) {
          const at = `encoder.layer.${n}`;
          const attended = this.#attention[n]!.call(hidden, hidden, hidden, {
            attentionMask: mask,
            returnWeights: inputs.outputAttentions === true ? 'per-head' : 'none',
          }); // [B, T, E], attention.output.dense included (out_proj)
          if (attended.attentionWeights !== undefined) attentions.push(attended.attentionWeights); // [B, H, T, T]
          const afterAttention = layerNorm(add(attended.output, hidden), p(`${at}.attention.output.LayerNorm.weight`), p(`${at}.attention.output.LayerNorm.bias`), eps);
          const intermediate = gelu(linear(afterAttention, p(`${at}.intermediate.dense.weight`), p(`${at}.intermediate.dense.bias`))); // [B, T, I]
          const output = linear(intermediate, p(`${at}.output.dense.weight`), p(`${at}.output.dense.bias`)); // [B, T, E]
          hidden = layerNorm(add(output, afterAttention), p(`${at}.output.LayerNorm.weight`), p(`${at}.output.LayerNorm.bias`), eps);
          hiddenStates.push(hidden);
        }

        // 4. Pooler: tanh(dense(h[:, 0]))
        const first = squeeze(slice(hidden, [0, 0, 0], [batch, 1, -1]), [1]); // [B, E]
        const poolerOutput = tanh(linear(first, p('pooler.dense.weight'), p('pooler.dense.bias')));

        return {
          lastHiddenState: hidden,
          poolerOutput,
          ...(inputs.outputHiddenStates === true ? { hiddenStates } : {}),
          ...(inputs.outputAttentions === true ? { attentions } : {}),
        };
      });
    } finally {
      owned.forEach((t) => t.dispose());
    }
  }

  /** Frees every weight. Later calls (and a second dispose) throw `UseAfterDisposeError`. */
  dispose(): void {
    const weights = this.#live('BertModel.dispose');
    weights.forEach((v) => v.dispose());
    this.#attention.forEach((a) => a.dispose());
    this.#attention = [];
    this.#weights = undefined;
  }

  #live(caller: string): Map<string, Variable> {
    if (this.#weights === undefined) throw new UseAfterDisposeError(caller);
    return this.#weights;
  }
}
