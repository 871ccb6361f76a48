import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The folder of the embedded attnkit-tiny-bert model, as installed with @attnkit/bert. */
export function embeddedModelFolder(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@attnkit/bert/package.json')), 'assets', 'attnkit-tiny-bert');
}
