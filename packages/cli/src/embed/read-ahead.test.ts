import { describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

async function* numbers(n: number, read: number[] = []): AsyncGenerator<number> {
  for (let i = 0; i < n; i++) {
    read.push(i);
    yield i;
  }
}
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('readAhead', () => {
  it.each([
    [0, 3, { ahead: [], counted: 0, ended: true }],
    [2, 3, { ahead: [0, 1], counted: 2, ended: true }],
    [4, 3, { ahead: [0, 1, 2, 3], counted: 4, ended: false }], // limit + 1 read: "more than the limit"
    [9, 3, { ahead: [0, 1, 2, 3], counted: 4, ended: false }],
  ])('of %i items with limit %i: %j, then every item in order', async (n, limit, expected) => {
    const read: number[] = [];
    const result = await readAhead(numbers(n, read), limit);
    expect({ ahead: result.ahead, counted: result.counted, ended: result.ended }).toEqual(expected);
    expect(read).toHaveLength(expected.ahead.length); // nothing beyond what it returns
    expect(await collect(result.all)).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('counts only the items `counts` passes (a shard), holding the others read on the way', async () => {
    const result = await readAhead(numbers(10), 2, (i) => i % 3 === 1);
    expect([result.ahead, result.counted, result.ended]).toEqual([[0, 1, 2, 3, 4, 5, 6, 7], 3, false]);
    expect(await collect(result.all)).toHaveLength(10);
  });

  it('closes the source when the loop over all stops early, or on close()', async () => {
    let closed = 0;
    async function* source(): AsyncGenerator<number> {
      try {
        yield* [1, 2, 3, 4];
      } finally {
        closed++;
      }
    }
    const early = await readAhead(source(), 1);
    for await (const item of early.all) if (item === 3) break;
    const unread = await readAhead(source(), 1);
    await unread.close();
    expect(closed).toBe(2);
  });
});
