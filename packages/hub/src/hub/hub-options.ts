import { checkBoolean, checkObject, checkOptionKeys, describeValue, InvalidArgumentError, nodeBuiltin } from '@attnkit/errors';

/** Where models by id come from, and where they are kept (the Hugging Face cache in Node). */
export interface HubOptions {
  /** The cache folder (Node). Default: `HF_HUB_CACHE`, else `HF_HOME/hub`, else `~/.cache/huggingface/hub` — where Python's `huggingface_hub` keeps models. */
  readonly cacheDir?: string | undefined;
  /** Use the cache only, never the network. Default: `HF_HUB_OFFLINE=1` (or `true`, `yes`). */
  readonly offline?: boolean | undefined;
  /** An access token for gated or private models, sent to the endpoint only, never logged. Default: `HF_TOKEN`. */
  readonly token?: string | undefined;
  /** The Hub's address. Default: `HF_ENDPOINT`, else `https://huggingface.co`. */
  readonly endpoint?: string | undefined;
}

/** {@link HubOptions} with every default applied. */
export interface ResolvedHubOptions {
  readonly cacheDir: string | undefined;
  readonly offline: boolean;
  readonly token: string | undefined;
  readonly endpoint: URL;
}

export const DEFAULT_ENDPOINT = 'https://huggingface.co';
const KEYS = ['cacheDir', 'offline', 'token', 'endpoint'] as const;

/** The environment variables of Node, or none in a browser. */
function environment(): Readonly<Record<string, string | undefined>> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** The cache folder `huggingface_hub` uses: `HF_HUB_CACHE`, `HF_HOME/hub`, `$XDG_CACHE_HOME/huggingface/hub` or `~/.cache/huggingface/hub`; undefined outside Node. */
function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env['HF_HUB_CACHE']) return env['HF_HUB_CACHE'];
  let path: typeof import('node:path');
  let os: typeof import('node:os');
  try {
    path = nodeBuiltin('node:path');
    os = nodeBuiltin('node:os');
  } catch {
    return undefined; // a browser: the Cache API keeps files instead
  }
  if (env['HF_HOME']) return path.join(env['HF_HOME'], 'hub');
  return path.join(env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache'), 'huggingface', 'hub');
}

/**
 * The hub options of a call with the environment's defaults (`HF_HUB_CACHE`, `HF_HOME`,
 * `HF_HUB_OFFLINE`, `HF_TOKEN`, `HF_ENDPOINT`), checked: unknown keys, a non-boolean `offline`, an
 * endpoint that is not an http(s) URL are `InvalidArgumentError`s (a token is never shown in one).
 *
 * @example
 * resolveHubOptions({ offline: true }, 'loadEncoder').cacheDir; // '/home/me/.cache/huggingface/hub'
 */
export function resolveHubOptions(given: HubOptions | undefined, caller = 'resolveHubOptions'): ResolvedHubOptions {
  if (typeof caller !== 'string' || caller === '') throw new InvalidArgumentError({ caller: 'resolveHubOptions', argument: 'caller', expected: 'the name of the calling function (for messages)', received: describeValue(caller) });
  const options = given === undefined ? {} : checkOptionKeys(checkObject(given, { caller, argument: 'hub', expected: 'an object { cacheDir?, offline?, token?, endpoint? }' }), KEYS, caller, 'hub');
  const env = environment();
  const offline = options.offline === undefined ? /^(1|true|yes|on)$/i.test(env['HF_HUB_OFFLINE'] ?? '') : checkBoolean(options.offline, { caller, argument: 'hub.offline', fallback: false });
  if (options.cacheDir !== undefined && (typeof options.cacheDir !== 'string' || options.cacheDir === '')) throw new InvalidArgumentError({ caller, argument: 'hub.cacheDir', expected: 'a folder path', received: describeValue(options.cacheDir) });
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token === '')) throw new InvalidArgumentError({ caller, argument: 'hub.token', expected: 'an access token (a non-empty string)', received: typeof options.token === 'string' ? 'an empty string' : `a ${typeof options.token}` });
  const endpointText = options.endpoint === undefined ? env['HF_ENDPOINT'] || DEFAULT_ENDPOINT : options.endpoint;
  let endpoint: URL | undefined;
  try {
    endpoint = new URL(String(endpointText).replace(/\/+$/, ''));
  } catch {
    endpoint = undefined;
  }
  if (typeof endpointText !== 'string' || endpoint === undefined || (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:')) throw new InvalidArgumentError({ caller, argument: 'hub.endpoint', expected: 'the http(s) address of a Hugging Face Hub (default https://huggingface.co)', received: describeValue(endpointText) });
  return { cacheDir: options.cacheDir ?? defaultCacheDir(env), offline, token: options.token ?? (env['HF_TOKEN'] || undefined), endpoint };
}
