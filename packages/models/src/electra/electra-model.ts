import { Linear, Module, ModuleList, skipInitialization, type StateDictSource, ModuleDict } from '@attnkit/nn';
import { BertEmbeddings, BertLayer } from '../bert/bert-model.js';
import type { Encoder, EncoderInputs, EncoderOutputs } from '../encoder/encoder.js';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { encoderForward } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { checkModelType } from '../encoder/check-model-type.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/**
 * An ELECTRA encoder (the discriminator, as sentence embedders use it) equal to Hugging Face's
 * `ElectraModel`: BERT's embeddings at `embedding_size`, projected to `hidden_size` by
 * `embeddings_project` when the two differ, then BERT's layers; no pooler.
 *
 * @example
 * const model = await loadEncoder('./electra-folder');
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask }); // [B, T, E]
 */
export class ElectraModel extends Module implements Encoder {
  readonly config: EncoderConfig;
  readonly embeddings: BertEmbeddings;
  /** `[B, T, embeddingSize]` → `[B, T, E]`; absent when the widths are equal. */
  readonly embeddingsProject: Linear | undefined;
  readonly encoder: ModuleDict<{ layer: ModuleList<BertLayer> }>;
  readonly initialisedKeys: readonly string[] = [];

  /** `checkpoint`: values by checkpoint key (no `electra.` prefix), loaded strictly; without one, Hugging Face's initialisation. */
  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed'], 'ElectraModel');
    this.config = checkModelType(config, ['electra'], 'ElectraModel');
    [this.embeddings, this.embeddingsProject, this.encoder] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('embeddings', new BertEmbeddings({ ...config, hiddenSize: config.embeddingSize })),
        config.embeddingSize === config.hiddenSize ? undefined : this.registerModule('embeddings_project', new Linear(config.embeddingSize, config.hiddenSize)),
        this.registerModule('encoder', new ModuleDict({ layer: new ModuleList(Array.from({ length: config.numHiddenLayers }, () => new BertLayer(config))) })),
      ] as const);
      if (checkpoint === undefined) initialiseLikeHuggingFace(this, config.initializerRange, options.seed);
      else this.loadStateDict(checkpoint);
      return parts;
    });
  }

  /** Runs the encoder: `{ lastHiddenState [B, T, E], hiddenStates?, attentions? }` (no pooler). Dispose the outputs. */
  forward(inputs: EncoderInputs): EncoderOutputs {
    this.assertLive('ElectraModel.forward');
    return encoderForward('ElectraModel.forward', this.config, {
      embed: (ids, types) => {
        const embedded = this.embeddings.forward(ids, types); // [B, T, embeddingSize]
        return this.embeddingsProject === undefined ? embedded : this.embeddingsProject.forward(embedded); // [B, T, E]
      },
      layers: this.encoder.get('layer'),
    }, inputs);
  }
}
