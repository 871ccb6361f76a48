import { InvalidArgumentError, checkBoolean, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';

/** What {@link checkLayerConfig} accepts in a config. */
export interface LayerConfigKeys<W extends string, F extends string> {
  /** Widths: required, each an integer ≥ 1. */
  readonly widths: readonly W[];
  /** Switches with their defaults (`{ bias: true }`): each `true`, `false` or absent. */
  readonly flags?: Readonly<Record<F, boolean>>;
  /** Other keys the layer accepts and checks itself (`seed`, a width with a default). */
  readonly others?: readonly string[];
}

/**
 * Checks a layer's config at the boundary: a plain object with only the keys `keys` names (a
 * misspelled or retired key, such as a `weights` map, is refused rather than ignored), each width an
 * integer ≥ 1 and each flag a boolean. Returns the widths and the flags (defaults filled in) by name.
 *
 * @example
 * const { inputDim, numHeads, headDim, bias } = checkLayerConfig(config, 'HeadProjection', { widths: ['inputDim', 'numHeads', 'headDim'], flags: { bias: true }, others: ['seed'] });
 * // HeadProjection: 'config' must be an object with only the keys inputDim, numHeads, headDim, bias, seed; received the unknown key 'weights'.
 */
export function checkLayerConfig<W extends string, F extends string = never>(config: unknown, caller: string, keys: LayerConfigKeys<W, F>): Record<W, number> & Record<F, boolean> {
  if (typeof caller !== 'string') throw new InvalidArgumentError({ caller: 'checkLayerConfig', argument: 'caller', expected: 'the name of the layer, for messages', received: describeValue(caller) });
  const { widths, flags = {} as Record<F, boolean>, others = [] } = checkObject(keys, { caller: 'checkLayerConfig', argument: 'keys', expected: '{ widths, flags?, others? }' });
  if (![widths, others].every((list) => Array.isArray(list) && list.every((key) => typeof key === 'string')) || typeof flags !== 'object' || flags === null) {
    throw new InvalidArgumentError({ caller: 'checkLayerConfig', argument: 'keys', expected: '{ widths: string[], flags?: { name: default }, others?: string[] }', received: describeValue(keys) });
  }
  checkObject(config, { caller, argument: 'config', expected: `a ${caller} config object ({ ${widths.join(', ')}, ... })` });
  const given = checkOptionKeys(config as Record<string, unknown>, [...widths, ...Object.keys(flags), ...others], caller, 'config');
  return Object.fromEntries([
    ...widths.map((name) => [name, checkInteger(given[name], { caller, argument: name, min: 1 })]),
    ...Object.entries<boolean>(flags).map(([name, fallback]) => [name, checkBoolean(given[name], { caller, argument: name, fallback })]),
  ]) as Record<W, number> & Record<F, boolean>;
}
