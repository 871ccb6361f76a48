import { InvalidArgumentError, checkBoolean, checkInteger, checkObject, closestName, describeValue } from '@attnkit/errors';
import { ROPE_TYPES, ROTARY_CONFIG_KEYS, type RopeType, type RotaryConfig } from './rotary-config.js';

/** A checked {@link RotaryConfig}: every key its `ropeType` reads, defaults filled in. */
export interface ResolvedRotaryConfig {
  readonly ropeType: RopeType;
  readonly headDim: number;
  /** R, the rotated width: `floor(headDim · partialRotaryFactor)`, even, ≤ D. */
  readonly rotaryDim: number;
  readonly ropeTheta: number;
  readonly maxPositionEmbeddings: number | undefined;
  readonly factor: number;
  readonly originalMaxPositionEmbeddings: number;
  readonly lowFreqFactor: number;
  readonly highFreqFactor: number;
  readonly attentionFactor: number | undefined;
  readonly betaFast: number;
  readonly betaSlow: number;
  readonly mscale: number;
  readonly mscaleAllDim: number;
  readonly truncate: boolean;
}

/**
 * Checks a {@link RotaryConfig} and fills in its defaults: an implemented `ropeType`; only the keys
 * that type reads; the required ones present; every number finite and in range (`factor ≥ 1`,
 * `highFreqFactor > lowFreqFactor`, an even rotated width ≥ 2, ...). `nameOf` says how errors name a
 * key (`rotaryConfigFromHuggingFace` names the config.json key, `rope_scaling.factor`).
 *
 * @example
 * checkRotaryConfig({ headDim: 64, ropeType: 'linear', factor: 4 }, 'RotaryEmbedding').rotaryDim; // 64
 */
export function checkRotaryConfig(config: RotaryConfig, caller: string, nameOf: (key: keyof RotaryConfig) => string = (key) => key): ResolvedRotaryConfig {
  checkObject(config, { caller, argument: 'config', expected: 'a RotaryConfig object ({ headDim, ropeType?, ropeTheta?, ... })' });
  const fail = (key: keyof RotaryConfig, expected: string, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument: nameOf(key), expected, received: describeValue(config[key]), ...(hint === undefined ? {} : { hint }) });
  };
  const ropeType = config.ropeType === undefined ? 'default' : config.ropeType; // null is refused below, never read as absent
  if (!(ROPE_TYPES as readonly unknown[]).includes(ropeType)) {
    const guess = typeof ropeType === 'string' ? closestName(ropeType, ROPE_TYPES) : undefined;
    fail('ropeType', `one of ${ROPE_TYPES.map((t) => `'${t}'`).join(', ')} (the rope_types attnkit implements)`, guess === undefined ? undefined : `Did you mean '${guess}'?`);
  }
  const reads = [...ROTARY_CONFIG_KEYS.common, ...ROTARY_CONFIG_KEYS[ropeType]] as string[];
  for (const key of Reflect.ownKeys(config)) {
    if (typeof key === 'string' && reads.includes(key)) continue;
    const owner = (Object.keys(ROTARY_CONFIG_KEYS) as Array<RopeType | 'common'>).find((type) => (ROTARY_CONFIG_KEYS[type] as readonly unknown[]).includes(key));
    throw new InvalidArgumentError({
      caller,
      argument: typeof key === 'string' ? nameOf(key as keyof RotaryConfig) : describeValue(key),
      expected: `absent: rope_type '${ropeType}' reads ${reads.map((k) => nameOf(k as keyof RotaryConfig)).join(', ')}`,
      received: typeof key === 'string' ? describeValue(config[key as keyof RotaryConfig]) : 'a symbol key',
      ...(owner === undefined ? {} : { hint: `It is a parameter of rope_type '${owner}'.` }),
    });
  }
  const number = (key: keyof RotaryConfig, fallback: number | undefined, test: (v: number) => boolean, expected: string): number => {
    const value = config[key] === undefined ? fallback : config[key];
    if (value === undefined) fail(key, `${expected} (rope_type '${ropeType}' needs it)`);
    if (typeof value !== 'number' || !Number.isFinite(value) || !test(value)) fail(key, expected);
    return value as number;
  };
  const integer = (key: keyof RotaryConfig, value: unknown) => checkInteger(value, { caller, argument: nameOf(key), min: 1 });
  const headDim = checkInteger(config.headDim, { caller, argument: nameOf('headDim'), min: 2 });
  const ropeTheta = number('ropeTheta', 10000, (v) => v > 0, 'a finite number > 0');
  const partial = number('partialRotaryFactor', 1, (v) => v > 0 && v <= 1, 'a number in (0, 1]');
  const rotaryDim = Math.trunc(headDim * partial); // int(head_dim * partial_rotary_factor), as transformers
  if (rotaryDim < 2 || rotaryDim % 2 !== 0) fail(partial === 1 ? 'headDim' : 'partialRotaryFactor', `a rotated width floor(headDim · partialRotaryFactor) that is even and ≥ 2; it is ${rotaryDim} here`);
  const maxPositionEmbeddings = config.maxPositionEmbeddings === undefined ? undefined : integer('maxPositionEmbeddings', config.maxPositionEmbeddings);
  if (ropeType === 'dynamic' && maxPositionEmbeddings === undefined) fail('maxPositionEmbeddings', "an integer ≥ 1 (rope_type 'dynamic' scales past it)");
  const typeReads = (key: keyof RotaryConfig) => reads.includes(key);
  const factor = typeReads('factor') ? number('factor', undefined, (v) => v >= 1, 'a finite number ≥ 1') : 1;
  let original = maxPositionEmbeddings ?? 0;
  if (typeReads('originalMaxPositionEmbeddings')) {
    if (config.originalMaxPositionEmbeddings === undefined && maxPositionEmbeddings === undefined) fail('originalMaxPositionEmbeddings', `an integer ≥ 1 (rope_type '${ropeType}' needs it, or ${nameOf('maxPositionEmbeddings')} in its place)`);
    original = integer('originalMaxPositionEmbeddings', config.originalMaxPositionEmbeddings ?? maxPositionEmbeddings);
  }
  const lowFreqFactor = typeReads('lowFreqFactor') ? number('lowFreqFactor', undefined, (v) => v > 0, 'a finite number > 0') : 1;
  const highFreqFactor = typeReads('highFreqFactor') ? number('highFreqFactor', undefined, (v) => v > lowFreqFactor, `a finite number > ${nameOf('lowFreqFactor')} = ${lowFreqFactor}`) : 1;
  const attentionFactor = config.attentionFactor === undefined ? undefined : number('attentionFactor', undefined, (v) => v > 0, 'a finite number > 0');
  const betaFast = number('betaFast', 32, (v) => v > 0, 'a finite number > 0');
  const betaSlow = number('betaSlow', 1, (v) => v > 0, 'a finite number > 0');
  const mscale = number('mscale', 0, (v) => v >= 0, 'a finite number ≥ 0');
  const mscaleAllDim = number('mscaleAllDim', 0, (v) => v >= 0, 'a finite number ≥ 0');
  const truncate = checkBoolean(config.truncate, { caller, argument: nameOf('truncate'), fallback: true });
  return { ropeType, headDim, rotaryDim, ropeTheta, maxPositionEmbeddings, factor, originalMaxPositionEmbeddings: original, lowFreqFactor, highFreqFactor, attentionFactor, betaFast, betaSlow, mscale, mscaleAllDim, truncate };
}
