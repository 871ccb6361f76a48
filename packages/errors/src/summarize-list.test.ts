import { describe, expect, it } from 'vitest';
import { summarizeList } from './summarize-list.js';

describe('summarizeList', () => {
  it('shows the first items and counts the rest', () => {
    expect(summarizeList(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
    expect(summarizeList(['a', 'b'])).toBe('a, b');
    expect(summarizeList([])).toBe('none');
    expect(summarizeList(Array.from({ length: 10_000 }, (_, i) => i)).length).toBeLessThan(100);
    expect(summarizeList(['x'.repeat(500)])).toBe(`${'x'.repeat(117)}...`);
    expect(summarizeList(['a is [2, 3]', 'b', 'c'], 2, '; ')).toBe('a is [2, 3]; b and 1 more');
  });

  it('reads a separator that is no string as ", " (as a bad count as 12): a message helper never throws', () => {
    expect(summarizeList(['a', 'b'], 12, null as never)).toBe('a, b');
    expect(summarizeList(['a', 'b'], 12, {} as never)).toBe('a, b');
  });
});
