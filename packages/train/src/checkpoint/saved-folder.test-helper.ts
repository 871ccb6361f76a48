// Test-only helpers shared by the folder savers' tests: the committed reference fixtures, the
// texts their Python references embedded, a folder's file list, and a model's embeddings of them.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Tensor2D } from '@tensorflow/tfjs-core';
import type { SentenceEncoder } from '@attnkit/sentence';

/** tooling/reference/fixtures, as a path. */
export const REFERENCE = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/', import.meta.url).pathname);

/** The texts the saved folders' Python references embedded. */
export const TEXTS = ['Hello world', 'The quick brown fox jumps over the lazy dog.', 'a kitten is sitting on the mat', 'Größe der Straße', ''];

/** Every file under `folder`, as sorted paths relative to it. */
export async function files(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(folder, join(e.parentPath, e.name))).sort();
}

/** `model`'s embeddings of {@link TEXTS}, `[5, D]` flat. */
export async function embed(model: SentenceEncoder): Promise<Float32Array> {
  const embeddings = (await model.encode(TEXTS)) as Tensor2D;
  const values = (await embeddings.data()) as Float32Array;
  embeddings.dispose();
  return values;
}
