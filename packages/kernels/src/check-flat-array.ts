import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/** Typed arrays the kernels take, by name, for the checks of {@link checkFlatArray}. */
const KINDS = { Int8Array, Int32Array, Uint8Array, Float32Array } as const;

/**
 * Checks that `value` is a typed array of the given kind holding at least `length` elements (the
 * flat data of a `[...]` operand), so the kernels' references and epilogues never read past the end
 * or coerce a non-array; throws `InvalidArgumentError` naming the argument otherwise.
 *
 * @example
 * checkFlatArray(a, 'Int8Array', rows * depth, 'int8MatMulReference', 'a'); // a: Int8Array [N, K]
 */
export function checkFlatArray<K extends keyof typeof KINDS>(value: unknown, kind: K, length: number, caller: string, argument: string): InstanceType<(typeof KINDS)[K]> {
  if (!(value instanceof KINDS[kind])) throw new InvalidArgumentError({ caller, argument, expected: `an ${kind}`, received: describeValue(value) });
  if ((value as ArrayLike<number>).length < length) throw new InvalidArgumentError({ caller, argument, expected: `at least ${length} elements`, received: `${(value as ArrayLike<number>).length}` });
  return value as InstanceType<(typeof KINDS)[K]>;
}
