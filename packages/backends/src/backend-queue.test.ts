import { describe, expect, it } from 'vitest';
import { exclusively } from './backend-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('exclusively', () => {
  it('runs overlapping calls one after another, in call order', async () => {
    const log: string[] = [];
    const job = (name: string) => exclusively(async () => {
      log.push(`${name} start`);
      await tick();
      await tick();
      log.push(`${name} end`);
      return name;
    });
    expect(await Promise.all([job('a'), job('b'), job('c')])).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('runs a call nested in a running one at once, also after an await (Node)', async () => {
    const log: string[] = [];
    await exclusively(async () => {
      log.push('outer');
      await tick();
      await exclusively(async () => {
        await tick();
        log.push('inner');
      });
      log.push('outer end');
    });
    expect(log).toEqual(['outer', 'inner', 'outer end']);
  });

  it('releases the queue when a call throws', async () => {
    await expect(exclusively(() => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(exclusively(async () => { await tick(); throw new Error('late'); })).rejects.toThrow('late');
    expect(await exclusively(() => 7)).toBe(7);
  });
});
