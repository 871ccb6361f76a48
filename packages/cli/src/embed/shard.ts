import { InvalidArgumentError } from '@attnkit/errors';

/** Which part of a corpus one run embeds: record i belongs to shard `i % count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

const MAX_SHARDS = 100_000;

function refuse(argument: string, expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit embed', argument, expected, received, hint: 'Shards are numbered from 0: --shard 0/4, 1/4, 2/4 and 3/4 split a corpus in four.' });
}

function integer(text: string, argument: string, whole: string): number {
  if (!/^\d{1,6}$/.test(text)) refuse(argument, `INDEX/COUNT with whole numbers, 0 <= INDEX < COUNT <= ${MAX_SHARDS}`, JSON.stringify(whole));
  return Number(text);
}

/**
 * Parses `--shard INDEX/COUNT` (0-based: `0/4` … `3/4`).
 *
 * @example
 * parseShard('1/4'); // { index: 1, count: 4 }
 */
export function parseShard(text: string, argument = '--shard'): Shard {
  const parts = text.split('/');
  if (parts.length !== 2) refuse(argument, 'INDEX/COUNT, e.g. 0/4', JSON.stringify(text));
  const index = integer(parts[0]!, argument, text);
  const count = integer(parts[1]!, argument, text);
  if (count < 1 || count > MAX_SHARDS || index >= count) refuse(argument, `0 <= INDEX < COUNT <= ${MAX_SHARDS}`, JSON.stringify(text));
  return { index, count };
}

/**
 * The shard a Kubernetes Indexed Job gives this pod: `JOB_COMPLETION_INDEX` of `JOB_COMPLETIONS`
 * (the manifest sets the second from `spec.completions`). `undefined` outside such a Job.
 *
 * @example
 * shardFromEnvironment({ JOB_COMPLETION_INDEX: '2', JOB_COMPLETIONS: '8' }); // { index: 2, count: 8 }
 */
export function shardFromEnvironment(env: NodeJS.ProcessEnv = process.env): Shard | undefined {
  const index = env.JOB_COMPLETION_INDEX;
  if (index === undefined || index === '') return undefined;
  const count = env.JOB_COMPLETIONS;
  if (count === undefined || count === '') refuse('JOB_COMPLETIONS', 'the Job\'s completion count beside JOB_COMPLETION_INDEX (env: JOB_COMPLETIONS from the manifest, see the README)', 'unset');
  return parseShard(`${index}/${count}`, 'JOB_COMPLETION_INDEX/JOB_COMPLETIONS');
}

/**
 * The file a shard writes: `out.npy` → `out-00001-of-00004.npy` (a single shard keeps the name).
 *
 * @example
 * shardPath('vectors.npy', { index: 1, count: 4 }); // 'vectors-00001-of-00004.npy'
 */
export function shardPath(path: string, shard: Shard): string {
  if (shard.count === 1) return path;
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const [stem, extension] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  const pad = (n: number) => String(n).padStart(5, '0');
  return `${stem}-${pad(shard.index)}-of-${pad(shard.count)}${extension}`;
}
