import { describe, expect, it } from 'vitest';
import { callerPath, isUrl } from './caller-path.js';

describe('callerPath', () => {
  it.each([
    ['out.json', '/tmp/caller/out.json'],
    ['./models/st', '/tmp/caller/models/st'],
    ['../ids.json', '/tmp/ids.json'],
  ])('resolves %j against the directory the command runs in', (path, expected) => {
    expect(callerPath(path, '/tmp/caller')).toBe(expected);
  });

  it('defaults to the process working directory', () => {
    expect(callerPath('out.json')).toBe(`${process.cwd()}/out.json`);
  });

  it.each(['/abs/model', 'https://huggingface.co/x/resolve/main', 'http://127.0.0.1:8000/model', 'blob:abc', 'data:,x', ''])('leaves %j unchanged', (path) => {
    expect(callerPath(path, '/tmp/caller')).toBe(path);
  });

  it.each([
    ['https://huggingface.co/x/resolve/main', true],
    ['http://127.0.0.1:8000/model', true],
    ['data:,x', true],
    ['./https-models/st', false],
    ['/abs/model', false],
  ])('isUrl(%j) is %s', (path, expected) => {
    expect(isUrl(path)).toBe(expected);
  });
});
