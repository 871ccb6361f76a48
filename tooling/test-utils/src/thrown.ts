/**
 * Runs `fn` and returns what it threw (or what its promise rejected with); fails when nothing
 * was thrown, so a test can then assert the error's class, fields and exact message.
 *
 * @example
 * const e = thrown(() => paddingMask([-1], 3));
 * expect(e).toBeInstanceOf(InvalidArgumentError);
 * expect(e.message).toBe("paddingMask: 'lengths[0]' must be ...");
 */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`expected an Error to be thrown, got ${String(error)}`);
  }
  throw new Error('expected the call to throw, but it returned normally');
}
