import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import type { Encoding, PostProcessor } from './create-post-processor.js';

type Piece = { readonly sequence: 0 | 1; readonly typeId: number } | { readonly special: string; readonly typeId: number };
const MAX_ID = 2 ** 31 - 1;
const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_ID;

/**
 * The `TemplateProcessing` post-processor of the Rust `tokenizers` library: the `single` template
 * for one text, `pair` for two; each piece is a sequence (`{"Sequence": {"id": "A" | "B", "type_id"}}`,
 * all its tokens given that type id) or a special token (`{"SpecialToken": {"id", "type_id"}}`, the
 * ids and tokens `special_tokens[id]` lists, one or more). A special token the templates name but
 * `special_tokens` lacks (the library panics on it when encoding) is an `InvalidArgumentError`.
 *
 * @example
 * templateProcessing(ComponentConfig.of(json.post_processor, 'post_processor', 'Tokenizer'));
 */
export function templateProcessing(config: ComponentConfig): PostProcessor {
  const specials = new Map<string, { ids: number[]; tokens: string[] }>();
  for (const [name, value] of Object.entries(config.record('special_tokens'))) {
    const v = value as { ids?: unknown; tokens?: unknown } | null;
    const ok = typeof v === 'object' && v !== null && Array.isArray(v.ids) && v.ids.every(isId) && Array.isArray(v.tokens) && v.tokens.every((t) => typeof t === 'string') && v.ids.length === v.tokens.length;
    if (!ok) config.fail(`special_tokens[${JSON.stringify(name)}]`, 'an object with "ids" and "tokens" lists of one length', value);
    specials.set(name, { ids: v!.ids as number[], tokens: v!.tokens as string[] });
  }
  const template = (name: 'single' | 'pair'): Piece[] =>
    config.list(name).map((entry, i) => {
      const e = entry as { Sequence?: { id?: unknown; type_id?: unknown }; SpecialToken?: { id?: unknown; type_id?: unknown } } | null;
      const sequence = e?.Sequence;
      const special = e?.SpecialToken;
      if (sequence !== undefined && (sequence.id === 'A' || sequence.id === 'B') && isId(sequence.type_id)) return { sequence: sequence.id === 'A' ? 0 : 1, typeId: sequence.type_id };
      if (special !== undefined && typeof special.id === 'string' && isId(special.type_id)) {
        if (!specials.has(special.id)) config.fail(`${name}[${i}]`, `a special token listed in special_tokens (${[...specials.keys()].join(', ') || 'none'})`, special.id);
        return { special: special.id, typeId: special.type_id };
      }
      return config.fail(`${name}[${i}]`, '{"Sequence": {"id": "A" or "B", "type_id"}} or {"SpecialToken": {"id", "type_id"}}', entry);
    });
  const [single, pair] = [template('single'), template('pair')];
  return (encodings) =>
    (encodings.length === 2 ? pair : single).flatMap((piece): Encoding[] => {
      if ('special' in piece) {
        const { ids, tokens } = specials.get(piece.special)!;
        return [{ ids, tokens, typeIds: ids.map(() => piece.typeId) }];
      }
      const e = encodings[piece.sequence];
      return e === undefined ? [] : [{ ids: e.ids, tokens: e.tokens, typeIds: e.ids.map(() => piece.typeId) }];
    });
}
