import { add, cast, cumsum, mul, notEqual, tidy, type Tensor } from '@tensorflow/tfjs-core';
import type { StateDictSource } from '@attnkit/nn';
import { BertEmbeddings, BertModel } from '../bert/bert-model.js';
import type { EncoderConfig, ModelType } from '../encoder/encoder-config.js';

/**
 * RoBERTa's `embeddings`: BERT's, except that positions count from the padding id: token `t` of a
 * row sits at `padding_idx + (number of non-padding tokens up to t)`, padding at `padding_idx`.
 * `ids [B, T]` → `[B, T, E]`.
 *
 * @example
 * const x = model.embeddings.forward(inputIds, undefined); // [B, T] int32 -> [B, T, E]
 */
export class RobertaEmbeddings extends BertEmbeddings {
  readonly #padTokenId: number;

  constructor(config: EncoderConfig) {
    super(config);
    this.#padTokenId = config.padTokenId;
  }

  /** Position ids from the ids (Hugging Face's `create_position_ids_from_input_ids`) → `[B, T, E]`. */
  protected override positionVectors(inputIds: Tensor): Tensor {
    return tidy(() => {
      const tokens = cast(notEqual(inputIds, this.#padTokenId), 'float32'); // [B, T] 1 = token, 0 = padding
      const counted = mul(cumsum(tokens, 1), tokens); // [B, T] 1, 2, 3, ... for tokens, 0 for padding
      const positionIds = cast(add(counted, this.#padTokenId), 'int32'); // [B, T]: pad + count (≤ max positions - 1, checked)
      return this.positionEmbeddings.forward(positionIds, { idsChecked: true }); // [B, T, E]
    });
  }
}

/**
 * A RoBERTa or XLM-RoBERTa encoder equal to Hugging Face's `RobertaModel` / `XLMRobertaModel`
 * (identical architectures): BERT's module tree and layers with RoBERTa's position ids, so
 * sequences hold at most `max_position_embeddings - pad_token_id - 1` tokens.
 *
 * @example
 * const model = await loadEncoder('./xlm-roberta-folder'); // a RobertaModel for model_type "xlm-roberta"
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask });
 */
export class RobertaModel extends BertModel {
  static override readonly modelTypes: readonly ModelType[] = ['roberta', 'xlm-roberta'];

  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super(config, checkpoint, options);
  }

  protected override createEmbeddings(config: EncoderConfig): BertEmbeddings {
    return new RobertaEmbeddings(config);
  }
}
