import type { BertConfig } from './bert-config.js';

/** One row of the checkpoint → module table. */
export interface BertWeightRow {
  /** Hugging Face name, without the `bert.` prefix, e.g. `encoder.layer.0.attention.self.query.weight`. */
  readonly checkpoint: string;
  readonly shape: readonly number[];
  /** Where it goes: `embeddings`, `layer.N.attention`, `layer.N`, or `pooler`. */
  readonly module: string;
  /** The variable there. */
  readonly variable: string;
  /** For q/k/v: which third of the fused `in_proj_weight` / `in_proj_bias` it fills. */
  readonly part?: 0 | 1 | 2;
}

/**
 * The one table mapping Hugging Face BERT checkpoint names to attnkit's variables. Names mirror
 * the checkpoint; the only transform is that each layer's `query`, `key` and `value` weights and
 * biases are stacked (in that order) into its attention's `in_proj_weight [3E, E]` and
 * `in_proj_bias [3E]`, so self-attention projects q, k and v in one matMul.
 *
 * @example
 * bertWeightTable(config).find((r) => r.checkpoint === 'pooler.dense.weight'); // { module: 'pooler', variable: 'dense.weight', shape: [E, E] }
 */
export function bertWeightTable(config: BertConfig): BertWeightRow[] {
  const { vocabSize: v, hiddenSize: e, intermediateSize: i, maxPositionEmbeddings: p, typeVocabSize: t } = config;
  const rows: BertWeightRow[] = [
    { checkpoint: 'embeddings.word_embeddings.weight', shape: [v, e], module: 'embeddings', variable: 'word_embeddings.weight' },
    { checkpoint: 'embeddings.position_embeddings.weight', shape: [p, e], module: 'embeddings', variable: 'position_embeddings.weight' },
    { checkpoint: 'embeddings.token_type_embeddings.weight', shape: [t, e], module: 'embeddings', variable: 'token_type_embeddings.weight' },
    { checkpoint: 'embeddings.LayerNorm.weight', shape: [e], module: 'embeddings', variable: 'LayerNorm.weight' },
    { checkpoint: 'embeddings.LayerNorm.bias', shape: [e], module: 'embeddings', variable: 'LayerNorm.bias' },
  ];
  for (let n = 0; n < config.numHiddenLayers; n++) {
    const at = `encoder.layer.${n}`;
    (['query', 'key', 'value'] as const).forEach((name, part) => {
      rows.push({ checkpoint: `${at}.attention.self.${name}.weight`, shape: [e, e], module: `layer.${n}.attention`, variable: 'in_proj_weight', part: part as 0 | 1 | 2 });
      rows.push({ checkpoint: `${at}.attention.self.${name}.bias`, shape: [e], module: `layer.${n}.attention`, variable: 'in_proj_bias', part: part as 0 | 1 | 2 });
    });
    rows.push(
      { checkpoint: `${at}.attention.output.dense.weight`, shape: [e, e], module: `layer.${n}.attention`, variable: 'out_proj.weight' },
      { checkpoint: `${at}.attention.output.dense.bias`, shape: [e], module: `layer.${n}.attention`, variable: 'out_proj.bias' },
      { checkpoint: `${at}.attention.output.LayerNorm.weight`, shape: [e], module: `layer.${n}`, variable: 'attention.output.LayerNorm.weight' },
      { checkpoint: `${at}.attention.output.LayerNorm.bias`, shape: [e], module: `layer.${n}`, variable: 'attention.output.LayerNorm.bias' },
      { checkpoint: `${at}.intermediate.dense.weight`, shape: [i, e], module: `layer.${n}`, variable: 'intermediate.dense.weight' },
      { checkpoint: `${at}.intermediate.dense.bias`, shape: [i], module: `layer.${n}`, variable: 'intermediate.dense.bias' },
      { checkpoint: `${at}.output.dense.weight`, shape: [e, i], module: `layer.${n}`, variable: 'output.dense.weight' },
      { checkpoint: `${at}.output.dense.bias`, shape: [e], module: `layer.${n}`, variable: 'output.dense.bias' },
      { checkpoint: `${at}.output.LayerNorm.weight`, shape: [e], module: `layer.${n}`, variable: 'output.LayerNorm.weight' },
      { checkpoint: `${at}.output.LayerNorm.bias`, shape: [e], module: `layer.${n}`, variable: 'output.LayerNorm.bias' },
    );
  }
  rows.push(
    { checkpoint: 'pooler.dense.weight', shape: [e, e], module: 'pooler', variable: 'dense.weight' },
    { checkpoint: 'pooler.dense.bias', shape: [e], module: 'pooler', variable: 'dense.bias' },
  );
  return rows;
}
