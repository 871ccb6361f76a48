import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelLoadError } from './model-load-error.js';
import { modelFiles } from './model-files.js';
import { subfolderSource } from './subfolder-source.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const redirect = (to: string) => response.writeHead(302, { location: to }).end();
    switch (request.url) {
      case '/m/config.json': return response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      case '/m/to-config': return redirect('/m/config.json');
      case '/m/to-file': return redirect('file:///etc/passwd');
      case '/m/to-data': return redirect('data:application/json,{"evil":1}');
      case '/m/loop': return redirect('/m/loop');
      case '/m/page': return response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      case '/m/fails': return response.writeHead(503).end('busy');
      case '/m/slow': response.writeHead(200, { 'content-length': '1000000' }); response.write('x'); return; // never ends
      default: return response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/m/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};

describe('modelFiles on untrusted URLs', () => {
  it('follows http redirects inside the web, and reads an HTML page as a missing file', async () => {
    const files = modelFiles(base, { caller: 'loadEncoder' });
    expect(new TextDecoder().decode(await files.read('to-config'))).toBe('{"ok":true}');
    expect(await files.read('page')).toBeUndefined();
  });

  it.each([
    ['to-file', /^loadEncoder: to-file: http:\/\/127\.0\.0\.1:\d+\/m\/to-file redirects to file:\/\/\/etc\/passwd; only http\(s\) redirects are followed\.$/],
    ['to-data', /^loadEncoder: to-data: http:\/\/127\.0\.0\.1:\d+\/m\/to-data redirects to data:application\/json,\{"evil":1\}; only http\(s\) redirects are followed\.$/],
    ['loop', /^loadEncoder: loop: more than 10 redirects from http:\/\/127\.0\.0\.1:\d+\/m\/loop \(last: http:\/\/127\.0\.0\.1:\d+\/m\/loop\)\.$/],
    ['fails', /^loadEncoder: fails: HTTP 503 from http:\/\/127\.0\.0\.1:\d+\/m\/fails\.$/],
  ])('%s is a ModelLoadError naming the URL', async (name, message) => {
    const error = await failure(modelFiles(base, { caller: 'loadEncoder' }).read(name));
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error.message).toMatch(message);
    expect((error as ModelLoadError).file).toBe(name);
  });

  it('a server that cannot be reached is a ModelLoadError naming the URL, not a bare "fetch failed"', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(modelFiles(`http://127.0.0.1:${port}/m`, { caller: 'loadEncoder' }).read('config.json'));
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error.message).toBe(`loadEncoder: config.json: cannot fetch http://127.0.0.1:${port}/m/config.json (fetch failed: ECONNREFUSED; a network error, or a redirect the runtime refused).`);
  });

  it('an AbortSignal stops a download that is under way', async () => {
    const controller = new AbortController();
    const reading = modelFiles(base, { signal: controller.signal }).read('slow');
    setTimeout(() => controller.abort(), 50);
    expect((await failure(reading)).name).toBe('AbortError');
  });
});

describe('subfolderSource on local folders with symbolic links', () => {
  const root = mkdtempSync(join(tmpdir(), 'attnkit-links-'));
  const outside = mkdtempSync(join(tmpdir(), 'attnkit-outside-'));
  writeFileSync(join(outside, 'config.json'), '{"secret":true}');
  mkdirSync(join(root, 'model'));
  mkdirSync(join(root, 'model', '1_Pooling'));
  symlinkSync(outside, join(root, 'model', '2_Dense'));
  mkdirSync(join(root, 'blobs'));
  writeFileSync(join(root, 'blobs', 'abc123'), '{"pooling_mode_mean_tokens":true}');
  symlinkSync(join(root, 'blobs', 'abc123'), join(root, 'model', '1_Pooling', 'config.json'));

  it('refuses a module folder that links outside the model folder', () => {
    expect(() => subfolderSource(join(root, 'model'), '2_Dense')).toThrow(ModelLoadError);
    expect(() => subfolderSource(join(root, 'model'), '2_Dense')).toThrow(/module path "2_Dense" is a symbolic link to .*attnkit-outside-.*, outside the model folder .*model; a folder's modules must be inside it\.$/);
  });

  it('follows a file that links elsewhere, as the Hugging Face cache lays out snapshots', async () => {
    const pooling = subfolderSource(join(root, 'model'), '1_Pooling');
    expect(new TextDecoder().decode(await modelFiles(pooling).read('config.json'))).toBe('{"pooling_mode_mean_tokens":true}');
  });
});
