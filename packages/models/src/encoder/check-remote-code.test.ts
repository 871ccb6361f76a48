import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkNotRemoteCode, UNSUPPORTED_ENCODER_TYPES } from './check-remote-code.js';
import { parseEncoderConfig } from './parse-encoder-config.js';

// config.json excerpts shaped like the Hub folders a retrieval user tries (model_type and auto_map as those folders write them).
const NOMIC = { model_type: 'nomic_bert', architectures: ['NomicBertModel'], auto_map: { AutoConfig: 'nomic-ai/nomic-bert-2048--configuration_hf_nomic_bert.NomicBertConfig', AutoModel: 'nomic-ai/nomic-bert-2048--modeling_hf_nomic_bert.NomicBertModel' }, n_embd: 768, n_head: 12, n_layer: 12 };
const JINA_V2 = { model_type: 'bert', architectures: ['JinaBertForMaskedLM'], auto_map: { AutoConfig: 'jinaai/jina-bert-implementation--configuration_bert.JinaBertConfig', AutoModel: 'jinaai/jina-bert-implementation--modeling_bert.JinaBertModel' }, position_embedding_type: 'alibi', vocab_size: 30528, hidden_size: 768, num_hidden_layers: 12, num_attention_heads: 12, intermediate_size: 3072, max_position_embeddings: 8192 };
const JINA_V3 = { model_type: 'xlm-roberta', architectures: ['XLMRobertaModel'], auto_map: { AutoConfig: 'jinaai/xlm-roberta-flash-implementation--configuration_xlm_roberta.XLMRobertaFlashConfig', AutoModel: 'jinaai/xlm-roberta-flash-implementation--modeling_lora.XLMRobertaLoRA' }, position_embedding_type: 'rotary', vocab_size: 250002, hidden_size: 1024, num_hidden_layers: 24, num_attention_heads: 16, intermediate_size: 4096, max_position_embeddings: 8194 };
const GTE = { model_type: 'new', architectures: ['NewModel'], auto_map: { AutoConfig: 'Alibaba-NLP/new-impl--configuration.NewConfig', AutoModel: 'Alibaba-NLP/new-impl--modeling.NewModel' }, position_embedding_type: 'rope' };

describe('checkNotRemoteCode', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['nomic-embed-text (nomic_bert)', NOMIC, /^parseEncoderConfig: 'model_type' must be one of "bert", "distilbert", "roberta", "xlm-roberta", "electra", "mpnet", "roformer", "modernbert"; received "nomic_bert", NomicBERT \(nomic-embed-text v1 \/ v1\.5: rotary positions, SwiGLU feed-forward\)\. On the Hub its folders name their own modelling code \(auto_map, loaded with trust_remote_code=True in transformers\); attnkit runs no code from a model folder and does not build this architecture\./],
    ['gte-base-en-v1.5 (new)', GTE, /^parseEncoderConfig: 'model_type' must be one of .*; received "new", Alibaba-NLP's NewModel/],
    ['jina-embeddings-v2 (model_type bert, its own code)', JINA_V2, /^parseEncoderConfig: 'auto_map' must be no custom code \(a folder of one of "bert", .*"modernbert" as transformers builds it\); received AutoConfig → "jinaai\/jina-bert-implementation--configuration_bert\.JinaBertConfig" with model_type "bert"\. This folder needs its own modelling code \(trust_remote_code=True in transformers\), which attnkit does not run; loading it as the built-in "bert" architecture would give other numbers silently\./],
    ['jina-embeddings-v3 (model_type xlm-roberta, its own code)', JINA_V3, /received AutoConfig → "jinaai\/xlm-roberta-flash-implementation--configuration_xlm_roberta\.XLMRobertaFlashConfig" with model_type "xlm-roberta"/],
  ])('refuses %s by name, listing the supported types', (_, json, message) => {
    const error = thrown(() => parseEncoderConfig(json));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(message);
  });

  it('names every model_type it knows, and lets an auto_map of tokenizers only through', () => {
    expect(Object.keys(UNSUPPORTED_ENCODER_TYPES)).toEqual(['nomic_bert', 'jina_bert', 'jina_embeddings_v3', 'new', 'eurobert']);
    expect(() => checkNotRemoteCode(new Map<string, unknown>([['model_type', 'bert'], ['auto_map', { AutoTokenizer: ['org/x--tokenization.MyTokenizer', null] }]]), 'test')).not.toThrow();
    expect(thrown(() => checkNotRemoteCode(null)).message).toBe("checkNotRemoteCode: 'config' must be a JSON object (config.json) or its entries as a Map; received null.");
    expect(() => checkNotRemoteCode(new Map<string, unknown>([['model_type', 'bert'], ['auto_map', { AutoModelForSequenceClassification: 'org/x--modeling.Mine' }]]), 'test')).toThrow(InvalidArgumentError);
  });
});
