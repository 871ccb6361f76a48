import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, modelDir, rootDir } from '../paths.js';
import { CORPUS_SELECTION, selectCorpusTexts } from './corpus-texts.js';

/** models/minilm-shaped/corpus-reference.json, written by scripts/make_corpus_reference.py (gitignored). */
export const corpusReferenceFile = join(modelDir, 'corpus-reference.json');

/** corpus-reference.json: the 2 000 texts, Python's ids for each (no padding) and the float64 PyTorch embeddings. */
export interface CorpusReference {
  readonly description: string;
  readonly selection: typeof CORPUS_SELECTION;
  readonly versions: Record<string, string>;
  /** The truncation length (128). */
  readonly length: number;
  readonly texts: string[];
  readonly inputIds: number[][];
  readonly embeddings: number[][];
}

export function readCorpusReference(): CorpusReference {
  return JSON.parse(readFileSync(corpusReferenceFile, 'utf8')) as CorpusReference;
}

/**
 * Writes corpus-reference.json when it is missing: picks the texts (corpus-texts.ts), then runs
 * scripts/make_corpus_reference.py with the reference venv (.venv-ref: torch, transformers).
 */
export async function ensureCorpusReference(): Promise<void> {
  if (existsSync(corpusReferenceFile)) return;
  const textsFile = join(modelDir, 'corpus-texts.json');
  writeFileSync(textsFile, JSON.stringify({ selection: CORPUS_SELECTION, texts: await selectCorpusTexts() }));
  const venv = join(rootDir, '.venv-ref', 'bin', 'python');
  const python = existsSync(venv) ? venv : '/usr/bin/python3';
  const args = [join(benchDir, 'scripts', 'make_corpus_reference.py'), modelDir, textsFile];
  console.error(`bench:peer: writing the corpus reference: ${python} ${args.join(' ')}`);
  execFileSync(python, args, { stdio: 'inherit' });
  if (!existsSync(corpusReferenceFile)) throw new Error('bench:peer: corpus-reference.json was not written: run scripts/make_corpus_reference.py with the reference venv (.venv-ref: torch, transformers; see the README)');
}
