import { InvalidArgumentError } from '@attnkit/errors';

const show = (value: unknown): string => {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One component of a parsed `tokenizer.json` (a normalizer, pre-tokenizer, model, post-processor or
 * decoder object) and where it sits in the file (`place`, e.g. `pre_tokenizer.pretokenizers[1]`).
 * Its readers return a field of the type the `tokenizers` library requires, its default where the
 * library has one, and otherwise throw an {@link InvalidArgumentError} naming the field's place and
 * the component's type: `Tokenizer: 'tokenizer.json normalizer.strip_left (Strip)' must be a boolean; received undefined.`
 *
 * @example
 * const config = ComponentConfig.of(json.normalizer, 'normalizer', 'Tokenizer');
 * const lowercase = config.boolean('lowercase'); // required
 * const stripAccents = config.nullableBoolean('strip_accents', null); // null when absent
 */
export class ComponentConfig {
  private constructor(
    readonly fields: ReadonlyMap<string, unknown>,
    readonly place: string,
    readonly caller: string,
  ) {}

  /** The component at `place`: an object with a string `type` (which a model may lack: `typed` false). */
  static of(value: unknown, place: string, caller: string, typed = true): ComponentConfig {
    if (!isRecord(value)) throw new InvalidArgumentError({ caller, argument: `tokenizer.json ${place}`, expected: typed ? 'an object with a "type"' : 'an object', received: show(value) });
    const config = new ComponentConfig(new Map(Object.entries(value)), place, caller);
    const type = config.fields.get('type');
    if (typeof type !== 'string' && (typed || type !== undefined)) config.fail('type', 'a string naming the component', type);
    return config;
  }

  /** The component's `type`. */
  get type(): string {
    return this.fields.get('type') as string;
  }

  /** Throws the error for `field` (the whole component when undefined), naming the component's type: `'tokenizer.json pre_tokenizer.replacement (Metaspace)'`. */
  fail(field: string | undefined, expected: string, received: unknown, hint?: string): never {
    return this.failWith(field, expected, show(received), hint);
  }

  /** As {@link fail}, with `received` already described in words. */
  failWith(field: string | undefined, expected: string, received: string, hint?: string): never {
    const type = this.fields.get('type');
    const named = field !== 'type' && typeof type === 'string' ? ` (${type})` : '';
    throw new InvalidArgumentError({ caller: this.caller, argument: `tokenizer.json ${this.place}${field === undefined ? '' : `.${field}`}${named}`, expected, received, ...(hint === undefined ? {} : { hint }) });
  }

  /** Throws the error for a `type` outside `known` (the types of this kind attnkit runs exactly). */
  unknownType(kind: string, known: readonly string[]): never {
    return this.fail('type', `one of ${known.map((k) => `"${k}"`).join(', ')} (the ${kind} types attnkit runs exactly as the tokenizers library)`, this.type);
  }

  #read<T>(name: string, fallback: T | undefined, ok: (value: unknown) => boolean, expected: string): T {
    const value = this.fields.get(name);
    if (value === undefined && fallback !== undefined) return fallback;
    if (!ok(value)) this.fail(name, expected, value);
    return value as T;
  }

  boolean(name: string, fallback?: boolean): boolean {
    return this.#read(name, fallback, (v) => typeof v === 'boolean', 'a boolean');
  }

  nullableBoolean(name: string, fallback?: boolean | null): boolean | null {
    return this.#read(name, fallback, (v) => typeof v === 'boolean' || v === null, 'a boolean or null');
  }

  string(name: string, fallback?: string): string {
    return this.#read(name, fallback, (v) => typeof v === 'string', 'a string');
  }

  nullableString(name: string, fallback?: string | null): string | null {
    return this.#read(name, fallback, (v) => typeof v === 'string' || v === null, 'a string or null');
  }

  /** A single character (one code point), as the library's `char` fields. */
  character(name: string, fallback?: string): string {
    return this.#read(name, fallback, (v) => typeof v === 'string' && [...v].length === 1, 'one character');
  }

  integer(name: string, min: number, max: number, fallback?: number): number {
    return this.#read(name, fallback, (v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max, `an integer from ${min} to ${max}`);
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback?: T): T {
    return this.#read(name, fallback, (v) => (values as readonly unknown[]).includes(v), `one of ${values.map((v) => `"${v}"`).join(', ')}`);
  }

  list(name: string): unknown[] {
    return this.#read<unknown[]>(name, undefined, Array.isArray, 'a list');
  }

  record(name: string): Record<string, unknown> {
    return this.#read<Record<string, unknown>>(name, undefined, isRecord, 'an object');
  }

  /** The config of the `index`-th entry of the list field `name`. */
  child(name: string, index: number, value: unknown): ComponentConfig {
    return ComponentConfig.of(value, `${this.place}.${name}[${index}]`, this.caller);
  }
}
