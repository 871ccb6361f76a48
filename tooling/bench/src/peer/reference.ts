import { readFileSync } from 'node:fs';
import { referenceFile } from './paths.js';

/** peer-reference.json (scripts/peer_models.py): the texts and the float64 PyTorch embeddings. */
export interface PeerReference {
  readonly texts: string[];
  readonly length: number;
  /** Python's ids: 128 per text, ending in [SEP]. */
  readonly inputIds: number[][];
  readonly embeddings: number[][];
  /** transformers.js 4.3.1's ids (cut at 128 after [SEP] was added) and their float64 embeddings. */
  readonly cutInputIds: number[][];
  readonly cutEmbeddings: number[][];
  readonly versions: Record<string, string>;
  readonly onnxruntimePythonCosine: Record<string, number>;
}

export function readReference(): PeerReference {
  return JSON.parse(readFileSync(referenceFile, 'utf8')) as PeerReference;
}
