import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import { templateProcessing } from './template-processing.js';

/** One sequence (or a piece of one) on its way through post-processing. */
export interface Encoding {
  readonly ids: readonly number[];
  readonly tokens: readonly string[];
  readonly typeIds: readonly number[];
}

/** A post-processor: the encodings of a text (one) or a pair (two) in, the encodings to concatenate out. */
export type PostProcessor = (encodings: readonly Encoding[]) => Encoding[];

/** The post-processor types of tokenizers 0.23, every one run exactly (special tokens, type ids; offsets are not computed). */
export const POST_PROCESSOR_TYPES = ['BertProcessing', 'RobertaProcessing', 'TemplateProcessing', 'ByteLevel', 'Sequence'] as const;

const MAX_ID = 2 ** 31 - 1;

/** A `[token, id]` pair of BertProcessing / RobertaProcessing (`sep`, `cls`). */
function special(config: ComponentConfig, name: string): { token: string; id: number } {
  const value = config.fields.get(name);
  if (!(Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isInteger(value[1]) && value[1] >= 0 && value[1] <= MAX_ID)) config.fail(name, 'a [token, id] pair', value);
  return { token: value[0] as string, id: value[1] as number };
}

const wrap = (e: Encoding, before: { token: string; id: number } | undefined, after: { token: string; id: number }, type: (e: Encoding) => number[], edge: [number, number]): Encoding => ({
  ids: [...(before === undefined ? [] : [before.id]), ...e.ids, after.id],
  tokens: [...(before === undefined ? [] : [before.token]), ...e.tokens, after.token],
  typeIds: [...(before === undefined ? [] : [edge[0]]), ...type(e), edge[1]],
});

/**
 * Builds the post-processor of a tokenizer.json, as the Rust `tokenizers` library runs it:
 * BertProcessing (`[CLS] A [SEP]`, `[CLS] A [SEP] B [SEP]`, type ids 0 then 1), RobertaProcessing
 * (`<s> A </s>`, `<s> A </s> </s> B </s>`, type ids all 0; `trim_offsets` and `add_prefix_space`
 * change offsets only), TemplateProcessing, ByteLevel (offsets only: ids unchanged) and Sequence
 * (each in turn). Before it, each encoding's type ids are its index (0, or 1 for a pair's second).
 *
 * @example
 * createPostProcessor(ComponentConfig.of({ type: 'BertProcessing', sep: ['[SEP]', 102], cls: ['[CLS]', 101] }, 'post_processor', 'Tokenizer'));
 */
export function createPostProcessor(config: ComponentConfig): PostProcessor {
  switch (config.type) {
    case 'BertProcessing': {
      const [sep, cls] = [special(config, 'sep'), special(config, 'cls')];
      return (encodings) => encodings.map((e, i) => (i === 0 ? wrap(e, cls, sep, (x) => [...x.typeIds], [0, 0]) : wrap(e, undefined, sep, (x) => [...x.typeIds], [1, 1])));
    }
    case 'RobertaProcessing': {
      const [sep, cls] = [special(config, 'sep'), special(config, 'cls')];
      config.boolean('trim_offsets', true);
      config.boolean('add_prefix_space', true);
      const zeros = (e: Encoding) => e.ids.map(() => 0);
      return (encodings) => encodings.map((e, i) => wrap(e, i === 0 ? cls : sep, sep, zeros, [0, 0]));
    }
    case 'TemplateProcessing':
      return templateProcessing(config);
    case 'ByteLevel':
      config.boolean('add_prefix_space');
      config.boolean('trim_offsets');
      return (encodings) => [...encodings];
    case 'Sequence': {
      const steps = config.list('processors').map((entry, i) => createPostProcessor(config.child('processors', i, entry)));
      return (encodings) => steps.reduce((out, step) => step(out), [...encodings]);
    }
    default:
      return config.unknownType('post-processor', POST_PROCESSOR_TYPES);
  }
}
