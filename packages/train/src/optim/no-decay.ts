import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/** The parameter-name patterns of transformers' `Trainer.get_decay_parameter_names`, matched on the lower-cased dotted name. */
export const NO_DECAY_PATTERNS: readonly RegExp[] = [/bias/, /layernorm/, /rmsnorm/, /(?:^|\.)norm(?:$|\.)/, /_norm(?:$|\.)/];

/**
 * Whether the Hugging Face `Trainer` exempts a parameter from weight decay by its name: biases and
 * normalisation weights (`bias`, `layernorm`, `rmsnorm`, a `norm` path segment, `_norm`), matched
 * on the lower-cased dotted checkpoint key. The Trainer also exempts every parameter of a
 * `LayerNorm` module whatever its name; {@link AdamW} does that too when it is given a `Module`.
 *
 * @example
 * isNoDecayParameter('encoder.layer.0.attention.output.LayerNorm.weight'); // true
 * isNoDecayParameter('encoder.layer.0.attention.self.query.weight');       // false
 */
export function isNoDecayParameter(name: string): boolean {
  if (typeof name !== 'string') throw new InvalidArgumentError({ caller: 'isNoDecayParameter', argument: 'name', expected: 'a parameter name (a string such as "encoder.layer.0.output.dense.bias")', received: describeValue(name) });
  const key = String(name).toLowerCase();
  return NO_DECAY_PATTERNS.some((pattern) => pattern.test(key));
}
