import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One repository of a {@link MockHub}. */
export interface MockRepo {
  /** Files of the `main` branch by path. */
  readonly files: Readonly<Record<string, Uint8Array | string>>;
  /** Its commit (40 hex digits). Default: derived from the id. */
  readonly commit?: string;
  /** Only requests with `Authorization: Bearer <token>` may read it (a gated or private model). */
  readonly token?: string;
}

/** What a mock hub was asked. */
export interface MockHubRequest {
  readonly method: string;
  readonly path: string;
  readonly range: string | undefined;
  readonly authorized: boolean;
}

/** Files larger than this are "LFS" files: the resolve URL redirects to the CDN path, as the Hub does. */
const LFS_THRESHOLD = 1024;

const sha = (algorithm: 'sha1' | 'sha256', bytes: Uint8Array) => createHash(algorithm).update(bytes).digest('hex');
const bytesOf = (file: Uint8Array | string) => (typeof file === 'string' ? new TextEncoder().encode(file) : file);

/**
 * A stand-in for the Hugging Face Hub on 127.0.0.1, answering as the Hub does: `HEAD`/`GET`
 * `/<org>/<name>/resolve/<revision>/<path>` with `X-Repo-Commit`, `ETag` (a git hash for small files),
 * and for files over 1 KiB a 302 to `http://localhost:<port>/cdn/<sha256>` (another origin, as the
 * Hub's CDN is) with `X-Linked-Etag` and `X-Linked-Size`; 404
 * `EntryNotFound` (with the commit) for a missing file, `RevisionNotFound` for an unknown revision,
 * 401 `RepoNotFound` for an unknown repository, 401 for a gated one without its token; byte ranges;
 * `GET /api/models/<id>/revision/<revision>` (the commit and `siblings`, as the Hub's API lists files);
 * and, when asked, a connection dropped in the middle of a download.
 *
 * @example
 * const hub = await MockHub.start({ 'acme/tiny': { files: { 'config.json': '{}' } } });
 * await loadEncoder('acme/tiny', { hub: { endpoint: hub.url, cacheDir } });
 * await hub.stop();
 */
export class MockHub {
  readonly requests: MockHubRequest[] = [];
  /** Drop the connection of the next CDN download after this many bytes (then reset to undefined). */
  dropNextDownloadAfter: number | undefined;
  readonly #server: Server;
  readonly #repos: Map<string, MockRepo>;
  readonly #blobs = new Map<string, Uint8Array>();

  private constructor(server: Server, repos: Record<string, MockRepo>) {
    this.#server = server;
    this.#repos = new Map(Object.entries(repos));
    for (const repo of this.#repos.values()) for (const file of Object.values(repo.files)) this.#blobs.set(sha('sha256', bytesOf(file)), bytesOf(file));
  }

  /** Starts a mock hub serving `repos` (id → repository). */
  static async start(repos: Record<string, MockRepo>): Promise<MockHub> {
    let hub: MockHub | undefined;
    const server = createServer((request, response) => hub!.#answer(request, response));
    hub = new MockHub(server, repos);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return hub;
  }

  /** The hub's address, for `hub.endpoint` / `HF_ENDPOINT`. */
  get url(): string {
    const address = this.#server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  }

  /** The commit of repository `id`. */
  commitOf(id: string): string {
    return this.#repos.get(id)?.commit ?? sha('sha1', new TextEncoder().encode(id));
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://hub');
    const path = decodeURIComponent(url.pathname);
    const authorization = request.headers['authorization'];
    this.requests.push({ method: request.method ?? 'GET', path, range: request.headers['range'], authorized: typeof authorization === 'string' });
    if (path.startsWith('/cdn/')) return this.#send(request, response, this.#blobs.get(path.slice(5)), true);
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(url.pathname);
    if (api !== null) return this.#info(request, response, api[1]!, decodeURIComponent(api[2]!));
    const match = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (match === null) return void response.writeHead(404).end();
    const [, id, revisionEncoded, fileEncoded] = match as unknown as [string, string, string, string];
    const repo = this.#repos.get(id);
    if (repo === undefined) return void response.writeHead(401, { 'x-error-code': 'RepoNotFound' }).end();
    if (repo.token !== undefined && authorization !== `Bearer ${repo.token}`) return void response.writeHead(401, { 'x-error-code': 'GatedRepo' }).end();
    const commit = this.commitOf(id);
    const revision = decodeURIComponent(revisionEncoded);
    if (revision !== 'main' && revision !== commit) return void response.writeHead(404, { 'x-error-code': 'RevisionNotFound' }).end();
    const file = repo.files[fileEncoded.split('/').map(decodeURIComponent).join('/')];
    if (file === undefined) return void response.writeHead(404, { 'x-error-code': 'EntryNotFound', 'x-repo-commit': commit }).end();
    const bytes = bytesOf(file);
    if (bytes.length > LFS_THRESHOLD) {
      const digest = sha('sha256', bytes);
      return void response.writeHead(302, { location: `${this.url.replace('127.0.0.1', 'localhost')}/cdn/${digest}`, // another origin, as the Hub's CDN is
 'x-repo-commit': commit, 'x-linked-etag': `"${digest}"`, 'x-linked-size': String(bytes.length), etag: `"${sha('sha1', bytes)}"` }).end();
    }
    response.setHeader('x-repo-commit', commit);
    response.setHeader('etag', `"${sha('sha1', bytes)}"`);
    this.#send(request, response, bytes, false);
  }

  /** `GET /api/models/<id>/revision/<revision>`: the commit and the file list, as the Hub's API gives them. */
  #info(request: IncomingMessage, response: ServerResponse, id: string, revision: string): void {
    const repo = this.#repos.get(id);
    if (repo === undefined) return void response.writeHead(401, { 'x-error-code': 'RepoNotFound' }).end();
    if (repo.token !== undefined && request.headers['authorization'] !== `Bearer ${repo.token}`) return void response.writeHead(401, { 'x-error-code': 'GatedRepo' }).end();
    const commit = this.commitOf(id);
    if (revision !== 'main' && revision !== commit) return void response.writeHead(404, { 'x-error-code': 'RevisionNotFound' }).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, sha: commit, siblings: Object.keys(repo.files).map((rfilename) => ({ rfilename })) }));
  }

  #send(request: IncomingMessage, response: ServerResponse, bytes: Uint8Array | undefined, mayDrop: boolean): void {
    if (bytes === undefined) return void response.writeHead(404).end();
    const range = /^bytes=(\d+)-$/.exec(request.headers['range'] ?? '');
    const start = range === null ? 0 : Number(range[1]);
    if (start > bytes.length) return void response.writeHead(416).end();
    const body = bytes.subarray(start);
    response.writeHead(range === null ? 200 : 206, { 'content-length': String(body.length), 'content-type': 'application/octet-stream', ...(range === null ? {} : { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` }) });
    if (request.method === 'HEAD') return void response.end();
    const drop = mayDrop ? this.dropNextDownloadAfter : undefined;
    if (drop !== undefined && drop < body.length) {
      this.dropNextDownloadAfter = undefined;
      response.write(body.subarray(0, drop), () => setTimeout(() => request.socket.destroy(), 20));
      return;
    }
    response.end(body);
  }
}
