import { describe, expect, it } from 'vitest';
import { DEFAULT_HUB, modelAddress } from './model-address.js';

describe('modelAddress', () => {
  it('turns a Hugging Face model id into its resolve/main/ folder on the hub', () => {
    expect(DEFAULT_HUB).toBe('https://huggingface.co');
    expect(modelAddress('sentence-transformers/all-MiniLM-L6-v2')).toBe('https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/');
    expect(modelAddress('  BAAI/bge-small-en-v1.5 \n')).toBe('https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/');
    expect(modelAddress('acme/tiny', 'http://127.0.0.1:5000/')).toBe('http://127.0.0.1:5000/acme/tiny/resolve/main/');
  });

  it("turns a model's page on the hub into its folder, keeping the branch", () => {
    expect(modelAddress('https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2')).toBe('https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/');
    expect(modelAddress('https://huggingface.co/acme/tiny/tree/v2/')).toBe('https://huggingface.co/acme/tiny/resolve/v2/');
  });

  it('keeps any other URL or path as the folder', () => {
    expect(modelAddress('/models/attnkit-tiny-bert/')).toBe('/models/attnkit-tiny-bert/');
    expect(modelAddress('https://huggingface.co/acme/tiny/resolve/main/')).toBe('https://huggingface.co/acme/tiny/resolve/main/');
    expect(modelAddress('https://models.example/folder')).toBe('https://models.example/folder');
  });

  it('an empty input is an error saying what to type', () => {
    expect(() => modelAddress('   ')).toThrow('Type a Hugging Face model id (such as sentence-transformers/all-MiniLM-L6-v2) or the URL of a model folder.');
  });
});
