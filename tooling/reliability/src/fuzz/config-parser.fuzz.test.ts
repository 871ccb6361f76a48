import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResourceLimitError, InvalidArgumentError } from '@attnkit/errors';
import { parseBertConfig, type BertConfig } from '@attnkit/models';
import { FUZZ_RUNS } from '../fuzz-budget.js';

/** A valid config, or an InvalidArgumentError (a ResourceLimitError for sizes past what attnkit builds) — nothing else; valid configs keep their invariants. */
function parsesOrRejects(json: unknown): boolean {
  let config: BertConfig;
  try {
    config = parseBertConfig(json);
  } catch (error) {
    if (error instanceof InvalidArgumentError || error instanceof ResourceLimitError) return true;
    throw error;
  }
  const sizes = [config.vocabSize, config.hiddenSize, config.numHiddenLayers, config.numAttentionHeads, config.intermediateSize, config.maxPositionEmbeddings, config.typeVocabSize];
  return sizes.every((n) => Number.isInteger(n) && n >= 1) && config.numHiddenLayers <= 1024 && config.hiddenSize % config.numAttentionHeads === 0 && config.layerNormEps > 0 && config.padTokenId < config.vocabSize;
}

const valid = { vocab_size: 100, hidden_size: 32, num_hidden_layers: 2, num_attention_heads: 4, intermediate_size: 64, max_position_embeddings: 16, type_vocab_size: 2, hidden_act: 'gelu', layer_norm_eps: 1e-12 };
const keys = [...Object.keys(valid), 'position_embedding_type', 'model_type', 'is_decoder', 'pad_token_id', 'hidden_dropout_prob', '__proto__', 'constructor'];

describe(`parseBertConfig fuzzing (fast-check, ${2 * FUZZ_RUNS} cases)`, () => {
  it('arbitrary JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), parsesOrRejects), { numRuns: FUZZ_RUNS, seed: 11 });
  });

  it('a valid config with random fields replaced by random values (incl. __proto__)', () => {
    const edits = fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.integer({ min: -3, max: 200 }), fc.double(), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null), fc.jsonValue()), { maxKeys: 4 });
    fc.assert(fc.property(edits, (patch) => parsesOrRejects(JSON.parse(JSON.stringify({ ...valid, ...patch })))), { numRuns: FUZZ_RUNS, seed: 12 });
    expect(({} as Record<string, unknown>)['hidden_size']).toBeUndefined();
  });
});
