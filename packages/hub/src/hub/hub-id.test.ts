import { describe, expect, it } from 'vitest';
import { ModelLoadError } from '../model-load-error.js';
import { checkHubSource, describeHubSource, parseHubId, repoFolderName } from './hub-id.js';

describe('parseHubId', () => {
  it.each([
    ['sentence-transformers/all-MiniLM-L6-v2', { id: 'sentence-transformers/all-MiniLM-L6-v2' }],
    ['BAAI/bge-small-en-v1.5@main', { id: 'BAAI/bge-small-en-v1.5', revision: 'main' }],
    ['acme/tiny@refs/pr/1', { id: 'acme/tiny', revision: 'refs/pr/1' }],
  ])('reads %j as a Hub id', (text, expected) => {
    expect(parseHubId(text)).toEqual(expected);
  });

  it.each(['./acme/tiny', '/models/acme/tiny', 'acme/tiny/', 'acme', 'https://huggingface.co/acme/tiny', 'a/b/c', '../x', 'acme/..', 'acme/tiny@', 'acme/tiny@../main', 'C:/models', 'acme/repo.git'])('%j is not an id', (text) => {
    expect(parseHubId(text)).toBeUndefined();
  });
});

describe('checkHubSource', () => {
  it('takes { id, revision?, subfolder? }, single-name legacy ids included', () => {
    expect(checkHubSource({ id: 'bert-base-uncased' }, 'loadEncoder')).toEqual({ id: 'bert-base-uncased' });
    expect(checkHubSource({ id: 'acme/tiny', revision: 'v2', subfolder: 'encoder' }, 'loadEncoder')).toMatchObject({ subfolder: 'encoder' });
  });

  it.each<[object, RegExp]>([
    [{ id: 'acme/../x' }, /^loadEncoder: the model id must be a Hugging Face id such as 'org\/name'/],
    [{ id: 42 }, /received number 42\.$/],
    [{ id: 'acme/tiny', revision: '../../etc' }, /^loadEncoder: the revision must be a branch, a tag or a commit/],
    [{ id: 'acme/tiny', subfolder: '../up' }, /^loadEncoder: the subfolder must be a relative folder inside the repository/],
    [{ id: 'acme/tiny', revison: 'v2' }, /^loadEncoder: a Hugging Face source is \{ id, revision\?, subfolder\? \}; received string 'the keys revison'\.$/],
  ])('refuses %j with a ModelLoadError', (source, message) => {
    expect(() => checkHubSource(source as never, 'loadEncoder')).toThrow(ModelLoadError);
    expect(() => checkHubSource(source as never, 'loadEncoder')).toThrow(message);
  });
});

describe('names', () => {
  it("gives the cache folder Python's huggingface_hub uses, and the id as messages show it", () => {
    expect(repoFolderName('sentence-transformers/all-MiniLM-L6-v2')).toBe('models--sentence-transformers--all-MiniLM-L6-v2');
    expect(describeHubSource({ id: 'acme/tiny', revision: 'v2', subfolder: 'enc' })).toBe('acme/tiny@v2 (folder enc)');
  });
});
