import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { MODEL_TYPES } from './encoder-config.js';

/**
 * Encoder `model_type`s a retrieval user meets whose folders run their own code (`auto_map` →
 * `trust_remote_code` in transformers) or that attnkit does not build, with what they are.
 */
export const UNSUPPORTED_ENCODER_TYPES: Readonly<Record<string, string>> = {
  nomic_bert: 'NomicBERT (nomic-embed-text v1 / v1.5: rotary positions, SwiGLU feed-forward)',
  jina_bert: 'Jina BERT (jina-embeddings-v2: ALiBi attention bias, GLU feed-forward)',
  jina_embeddings_v3: 'Jina embeddings v3 (XLM-R with rotary positions and LoRA task adapters)',
  new: "Alibaba-NLP's NewModel (gte-*-en-v1.5, gte-multilingual-base: rotary positions, its own layers)",
  eurobert: 'EuroBERT (rotary positions, Llama-style layers)',
};

const supported = () => MODEL_TYPES.map((t) => `"${t}"`).join(', ');

/**
 * Refuses, from config.json (parsed, or its entries as a Map), an encoder folder that is not what its `model_type` would
 * make attnkit build: a `model_type` of {@link UNSUPPORTED_ENCODER_TYPES}, or an `auto_map` naming
 * custom code for the config or the model (`AutoConfig`, `AutoModel…`) — Jina v2 says
 * `model_type: "bert"` and v3 `"xlm-roberta"`, but their code is another architecture, which
 * loading them as BERT or XLM-R would silently replace. The error names the `model_type`, the code
 * and the supported types.
 *
 * @example
 * checkNotRemoteCode(JSON.parse(await readFile('nomic-embed-text-v1.5/config.json', 'utf8'))); // throws: model_type "nomic_bert"
 */
export function checkNotRemoteCode(config: unknown, caller = 'checkNotRemoteCode'): void {
  caller = typeof caller === 'string' ? caller : 'checkNotRemoteCode'; // a caller only names the function in messages
  const plain = typeof config === 'object' && config !== null && !Array.isArray(config) && Object.getPrototypeOf(config) === Object.prototype;
  if (!(config instanceof Map) && !plain) throw new InvalidArgumentError({ caller, argument: 'config', expected: 'a JSON object (config.json) or its entries as a Map', received: describeValue(config) });
  const raw: ReadonlyMap<unknown, unknown> = config instanceof Map ? config : new Map(Object.entries(config as object));
  const modelType = raw.get('model_type');
  if (typeof modelType === 'string' && Object.hasOwn(UNSUPPORTED_ENCODER_TYPES, modelType)) {
    throw new InvalidArgumentError({
      caller,
      argument: 'model_type',
      expected: `one of ${supported()}`,
      received: `"${modelType}", ${UNSUPPORTED_ENCODER_TYPES[modelType]}`,
      hint: 'On the Hub its folders name their own modelling code (auto_map, loaded with trust_remote_code=True in transformers); attnkit runs no code from a model folder and does not build this architecture. docs/models.md lists what loads.',
    });
  }
  const autoMap = raw.get('auto_map');
  if (typeof autoMap !== 'object' || autoMap === null || Array.isArray(autoMap)) return;
  const code = Object.entries(autoMap).filter(([key]) => key === 'AutoConfig' || key.startsWith('AutoModel'));
  if (code.length === 0) return;
  const [[key, target]] = code as [[string, unknown]];
  throw new InvalidArgumentError({
    caller,
    argument: 'auto_map',
    expected: `no custom code (a folder of one of ${supported()} as transformers builds it)`,
    received: `${key} → ${JSON.stringify(target)} with model_type ${JSON.stringify(modelType) ?? 'absent'}`,
    hint: `This folder needs its own modelling code (trust_remote_code=True in transformers), which attnkit does not run; loading it as the built-in ${JSON.stringify(modelType) ?? 'BERT'} architecture would give other numbers silently. docs/models.md lists what loads.`,
  });
}
