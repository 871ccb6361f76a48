import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { parseShard, shardFromEnvironment, shardPath } from './shard.js';

describe('shards', () => {
  it('parses I/N, 0-based', () => {
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    expect(parseShard('3/4')).toEqual({ index: 3, count: 4 });
  });

  it.each(['4/4', '1/0', '-1/4', '1.5/4', '1/4/2', 'a/b', '', '1', '1/1000000'])('refuses %j with the expected form', (text) => {
    const error = thrown(() => parseShard(text));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/^attnkit embed: '--shard' must be (INDEX\/COUNT|0 <= INDEX < COUNT)/);
  });

  it('reads a Kubernetes Indexed Job: JOB_COMPLETION_INDEX of JOB_COMPLETIONS', () => {
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: '2', JOB_COMPLETIONS: '8' })).toEqual({ index: 2, count: 8 });
    expect(shardFromEnvironment({})).toBeUndefined();
    expect((thrown(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '2' })) as Error).message).toMatch(/'JOB_COMPLETIONS' must be the Job's completion count/);
    expect((thrown(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '8', JOB_COMPLETIONS: '8' })) as Error).message).toMatch(/'JOB_COMPLETION_INDEX\/JOB_COMPLETIONS' must be 0 <= INDEX < COUNT/);
  });

  it('names shard files like out-00001-of-00004.npy; one shard keeps the name', () => {
    expect(shardPath('/data/vectors.npy', { index: 1, count: 4 })).toBe('/data/vectors-00001-of-00004.npy');
    expect(shardPath('out.jsonl', { index: 0, count: 12 })).toBe('out-00000-of-00012.jsonl');
    expect(shardPath('/data.d/vectors', { index: 1, count: 2 })).toBe('/data.d/vectors-00001-of-00002');
    expect(shardPath('vectors.npy', { index: 0, count: 1 })).toBe('vectors.npy');
  });
});
