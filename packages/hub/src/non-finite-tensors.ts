import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/**
 * The tensors of a checkpoint that hold NaN or ±Infinity, each as `'name: 3 NaN, 1 infinite'`
 * (names cut at 80 characters), for the opt-in `checkFinite` of the loaders.
 *
 * @example
 * nonFiniteTensors(readSafetensors(bytes).tensors); // ['encoder.layer.0.output.dense.weight: 2 NaN']
 */
export function nonFiniteTensors(tensors: ReadonlyMap<string, { readonly values: ArrayLike<number> }>): string[] {
  if (!(tensors instanceof Map)) throw new InvalidArgumentError({ caller: 'nonFiniteTensors', argument: 'tensors', expected: 'a Map of name → { values } (readSafetensors(...).tensors)', received: describeValue(tensors) });
  const found: string[] = [];
  for (const [name, { values }] of tensors) {
    let nan = 0;
    let inf = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (Number.isNaN(v)) nan++;
      else if (!Number.isFinite(v)) inf++;
    }
    if (nan + inf > 0) found.push(`${name.length > 80 ? `${name.slice(0, 80)}…` : name}: ${[nan > 0 ? `${nan} NaN` : '', inf > 0 ? `${inf} infinite` : ''].filter(Boolean).join(', ')}`);
  }
  return found;
}
