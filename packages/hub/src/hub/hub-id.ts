import { describeValue, InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from '../model-load-error.js';

/**
 * A model on the Hugging Face Hub: its id (`org/name`), the revision to read (a branch, a tag or a
 * 40-character commit; default `main`) and optionally a folder inside the repository.
 */
export interface HubSource {
  readonly id: string;
  readonly revision?: string;
  readonly subfolder?: string;
}

/** What an id, a revision and a subfolder may hold (the Hub's own rules, bounded). */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}\/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/;
const SINGLE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/;
const REVISION = /^[A-Za-z0-9_.\-/]{1,200}$/;
/** A revision that is a commit: the cache then needs no ref to find its snapshot. */
export const COMMIT = /^[0-9a-f]{40}$/;

/**
 * `org/name` or `org/name@revision` as a {@link HubSource}, or `undefined` for any other string
 * (a path, a URL). The id's characters are the Hub's (letters, digits, `_ . -`, one `/`); `..` is
 * never an id.
 *
 * @example
 * parseHubId('sentence-transformers/all-MiniLM-L6-v2@main'); // { id: 'sentence-transformers/all-MiniLM-L6-v2', revision: 'main' }
 * parseHubId('./models/tiny'); // undefined
 */
export function parseHubId(text: string): HubSource | undefined {
  if (typeof text !== 'string') throw new InvalidArgumentError({ caller: 'parseHubId', argument: 'text', expected: "a string such as 'org/name' or 'org/name@revision'", received: describeValue(text) });
  const at = text.indexOf('@');
  const id = at < 0 ? text : text.slice(0, at);
  const revision = at < 0 ? undefined : text.slice(at + 1);
  if (!ID.test(id) || id.split('/').some((part) => part === '..' || part === '.' || part.endsWith('.git'))) return undefined;
  if (revision !== undefined && !validRevision(revision)) return undefined;
  return revision === undefined ? { id } : { id, revision };
}

function validRevision(revision: string): boolean {
  return REVISION.test(revision) && !revision.split('/').some((part) => part === '' || part === '..' || part === '.');
}

/** `source` is `{ id, revision?, subfolder? }`. */
export function isHubSource(source: unknown): source is HubSource {
  return typeof source === 'object' && source !== null && !(source instanceof URL) && typeof (source as { id?: unknown }).id === 'string';
}

/**
 * Checks a {@link HubSource} object: an id of the Hub's form (`org/name`, or a single name of the
 * Hub's legacy models such as `bert-base-uncased`), a revision of branch, tag or commit
 * characters, a relative subfolder. A typed `ModelLoadError` names what is wrong.
 *
 * @example
 * checkHubSource({ id: 'BAAI/bge-small-en-v1.5', revision: 'main' }, 'loadSentenceEncoder');
 */
export function checkHubSource(source: HubSource, caller: string): HubSource {
  const fail = (what: string, received: unknown): never => {
    throw new ModelLoadError('', `${what}; received ${describeValue(received)}.`, undefined, caller);
  };
  const { id, revision, subfolder } = source;
  if (typeof id !== 'string' || !(ID.test(id) || SINGLE.test(id)) || id.split('/').some((part) => part === '..' || part === '.')) fail("the model id must be a Hugging Face id such as 'org/name' (letters, digits, _ . -)", id);
  if (revision !== undefined && (typeof revision !== 'string' || !validRevision(revision))) fail('the revision must be a branch, a tag or a commit (letters, digits, _ . - /)', revision);
  if (subfolder !== undefined && (typeof subfolder !== 'string' || subfolder.split('/').some((part) => part === '..' || part === '.'))) fail('the subfolder must be a relative folder inside the repository', subfolder);
  const known = new Set(['id', 'revision', 'subfolder']);
  const unknown = Object.keys(source).filter((key) => !known.has(key));
  if (unknown.length > 0) fail('a Hugging Face source is { id, revision?, subfolder? }', `the keys ${unknown.join(', ')}`);
  return source;
}

/**
 * The folder name of a model in the Hugging Face cache: `models--org--name`.
 *
 * @example
 * repoFolderName('sentence-transformers/all-MiniLM-L6-v2'); // 'models--sentence-transformers--all-MiniLM-L6-v2'
 */
export function repoFolderName(id: string): string {
  checkHubSource({ id }, 'repoFolderName');
  return ['models', ...id.split('/')].join('--');
}

/**
 * How a Hub source is named in messages: `org/name`, with `@revision` and `/subfolder` when given.
 *
 * @example
 * describeHubSource({ id: 'org/name', revision: 'v2' }); // 'org/name@v2'
 */
export function describeHubSource({ id, revision, subfolder }: HubSource): string {
  return `${id}${revision === undefined ? '' : `@${revision}`}${subfolder === undefined || subfolder === '' ? '' : ` (folder ${subfolder})`}`;
}
