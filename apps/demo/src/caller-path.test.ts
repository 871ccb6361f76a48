import { describe, expect, it } from 'vitest';
import { callerPath } from './caller-path.js';

const pnpmStart = { npm_lifecycle_event: 'start', npm_package_name: '@attnkit/demo', INIT_CWD: '/tmp/caller' };

describe('callerPath', () => {
  it.each([
    ['out.json', '/tmp/caller/out.json'],
    ['./models/st', '/tmp/caller/models/st'],
    ['../ids.json', '/tmp/ids.json'],
  ])('resolves %j against INIT_CWD when the package start script runs the CLI (pnpm runs it in apps/demo)', (path, expected) => {
    expect(callerPath(path, pnpmStart, '/work/main/apps/demo')).toBe(expected);
  });

  it.each([
    ['another script (a user script that cd-s elsewhere)', { ...pnpmStart, npm_lifecycle_event: 'embed' }],
    ['another package', { ...pnpmStart, npm_package_name: 'my-app' }],
    ['no INIT_CWD', { ...pnpmStart, INIT_CWD: undefined }],
    ['plain tsx / node (no npm variables)', {}],
  ])('uses the working directory otherwise: %s', (_, env) => {
    expect(callerPath('out.json', env, '/home/me/project')).toBe('/home/me/project/out.json');
  });

  it.each(['/abs/model', 'https://huggingface.co/x/resolve/main', 'http://127.0.0.1:8000/model', 'blob:abc', 'data:,x', ''])('leaves %j unchanged', (path) => {
    expect(callerPath(path, pnpmStart, '/work/main/apps/demo')).toBe(path);
  });
});
