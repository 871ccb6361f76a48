import { ModelLoadError } from '../model-load-error.js';
import { describeHubSource, type HubSource } from './hub-id.js';
import type { ResolvedHubOptions } from './hub-options.js';

/** What the Hub says of one file of a revision (`HEAD …/resolve/<revision>/<file>`). */
export type HubFileMetadata =
  | { readonly kind: 'file'; readonly commit: string; readonly etag: string; readonly size: number | undefined; readonly url: URL }
  | { readonly kind: 'missing'; readonly commit: string | undefined };

const MAX_REDIRECTS = 10;

/** `ETag: W/"abc"` or `"abc"` → `abc`, as `huggingface_hub` names blobs. */
export function normalizeEtag(etag: string | null): string | undefined {
  if (etag === null) return undefined;
  const value = etag.replace(/^W\//, '').replace(/^"|"$/g, '');
  return /^[A-Za-z0-9._-]{1,128}$/.test(value) ? value : undefined; // a blob's file name: nothing else
}

/** The resolve URL of `file` in `source` at `revision` (a branch, tag or commit). */
export function resolveUrl(endpoint: URL, source: HubSource, revision: string, file: string): URL {
  const path = [...(source.subfolder ?? '').split('/').filter(Boolean), ...file.split('/')].map(encodeURIComponent).join('/');
  return new URL(`${endpoint.pathname.replace(/\/$/, '')}/${source.id}/resolve/${encodeURIComponent(revision)}/${path}`, endpoint);
}

/** Headers of a request to `url`: the token only to the endpoint itself, never to a CDN it redirects to. */
export function hubHeaders(url: URL, options: ResolvedHubOptions, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity', ...extra };
  if (options.token !== undefined && url.origin === options.endpoint.origin) headers['authorization'] = `Bearer ${options.token}`;
  return headers;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether `target` may be followed from the endpoint: https anywhere, the endpoint's own origin, or — for a hub on this machine (a mirror, a test) — this machine. */
export function allowedRedirect(target: URL, options: ResolvedHubOptions): boolean {
  return target.protocol === 'https:' || target.origin === options.endpoint.origin || (LOOPBACK.has(options.endpoint.hostname) && LOOPBACK.has(target.hostname));
}

/**
 * Asks the Hub what `file` of `source` is at `revision`, as `huggingface_hub` does: a `HEAD` on its
 * resolve URL, following the Hub's own redirects (a renamed repository), not the one to the CDN that
 * large files answer with (whose `Location` is where to download, with `X-Linked-Etag` and
 * `X-Linked-Size`). Returns the commit, the blob name (`ETag`) and size of a file, or that the
 * revision has no such file. A repository that is gated, private or absent (401, 403, 404 without
 * `X-Repo-Commit`) and any other failure are `ModelLoadError`s that say what to do; the token is never
 * in a message. Network errors reject with the fetch error (the caller may fall back to the cache).
 *
 * @example
 * const meta = await hubFileMetadata({ id: 'org/name' }, 'main', 'config.json', options, { caller: 'loadEncoder', fetch });
 */
export async function hubFileMetadata(source: HubSource, revision: string, file: string, options: ResolvedHubOptions, { caller, fetch, signal }: { readonly caller: string; readonly fetch: typeof globalThis.fetch; readonly signal?: AbortSignal | undefined }): Promise<HubFileMetadata> {
  const name = describeHubSource(source);
  const fail = (message: string): never => {
    throw new ModelLoadError(file, message, undefined, caller);
  };
  let url = resolveUrl(options.endpoint, source, revision, file);
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', headers: hubHeaders(url, options), ...(signal === undefined ? {} : { signal }) });
    const commit = response.headers.get('x-repo-commit') ?? undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      const target = new URL(location, url);
      const linked = normalizeEtag(response.headers.get('x-linked-etag'));
      if (linked !== undefined && commit !== undefined) {
        // a large file: the CDN holds it; its metadata came with this answer
        if (!allowedRedirect(target, options)) fail(`${file} of ${name}: the Hub sends it from ${target.origin}, which is not https; only https downloads are followed.`);
        const size = Number(response.headers.get('x-linked-size') ?? Number.NaN);
        return { kind: 'file', commit, etag: linked, size: Number.isFinite(size) ? size : undefined, url: target };
      }
      if (target.origin !== options.endpoint.origin) fail(`${file} of ${name}: ${url.href} redirects to ${target.origin}, another host than the Hub's; not followed.`);
      if (hop + 1 >= MAX_REDIRECTS) fail(`${file} of ${name}: more than ${MAX_REDIRECTS} redirects from the Hub.`);
      url = target; // the Hub's own redirect (a renamed repository)
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      fail(`${name} needs access (HTTP ${response.status} from ${options.endpoint.origin}): it is gated or private${options.token === undefined ? '. Accept its terms on the Hub and set HF_TOKEN (or the hub.token option) to a token of your account' : ', and the token sent was not accepted: check that its account may read it (a gated model needs its terms accepted)'}. Or the id is misspelled: the Hub answers so for models that do not exist.`);
    }
    if (response.status === 404) {
      if (commit === undefined || response.headers.get('x-error-code') === 'RepoNotFound' || response.headers.get('x-error-code') === 'RevisionNotFound') {
        fail(`${name} is not on ${options.endpoint.origin}${response.headers.get('x-error-code') === 'RevisionNotFound' ? ` (no revision ${revision})` : ''}: check the id${options.token === undefined ? ', or set HF_TOKEN for a private model' : ''}.`);
      }
      return { kind: 'missing', commit };
    }
    if (!response.ok) fail(`${file} of ${name}: HTTP ${response.status} from ${url.origin}.`);
    const etag = normalizeEtag(response.headers.get('x-linked-etag') ?? response.headers.get('etag'));
    if (commit === undefined || etag === undefined) fail(`${file} of ${name}: ${url.origin} answered without X-Repo-Commit and ETag headers; is ${options.endpoint.origin} a Hugging Face Hub?`);
    const size = Number(response.headers.get('x-linked-size') ?? response.headers.get('content-length') ?? Number.NaN);
    return { kind: 'file', commit: commit as string, etag: etag as string, size: Number.isFinite(size) ? size : undefined, url };
  }
}
