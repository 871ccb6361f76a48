import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the CLI says under results of the embedded model, so nobody mistakes it for a production encoder. */
export const EMBEDDED_MODEL_NOTE = 'note: the embedded model is tiny (2 layers, 64 wide) and trained only on WordNet definitions: it tells close paraphrases from unrelated sentences, but it is no general-purpose encoder. Use --model with a real checkpoint.';

/** The folder of the embedded attnkit-tiny-bert model, as installed with @attnkit/models. */
export function embeddedModelFolder(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@attnkit/models/package.json')), 'assets', 'attnkit-tiny-bert');
}
