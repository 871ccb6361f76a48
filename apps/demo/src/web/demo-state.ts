import type { BackendCapabilities } from '@attnkit/backends';
import type { FineTuneRun } from './fine-tune-panel.js';
import type { GenerationRun, LoadedCausalLM } from './generation-panel.js';
import type { SearchRun } from './search-panel.js';

/** An input longer than the model reads: `kept` of its `total` tokens (special tokens included). */
export interface Truncation {
  readonly sentence: number;
  readonly kept: number;
  readonly total: number;
}

/** What the page exposes as `window.__attnkitDemo` for its end-to-end tests. */
export interface DemoState {
  backend?: string;
  capabilities?: BackendCapabilities;
  model?: { label: string; url?: string; loadMs: number };
  /** Per model file of the last load: progress reports, bytes read, bytes expected. */
  progress: Record<string, { events: number; loaded: number; total: number | undefined }>;
  tokens?: string[][];
  embeddings?: number[][];
  /** Cosine similarity of the sentences `[N, N]`, as drawn. */
  similarity?: number[][];
  /** Attention of sentence 1 per layer and head, `[layers][heads][T][T]`, as drawn. */
  attentions?: number[][][][];
  truncated?: Truncation[];
  compare?: Record<string, number>;
  /** The results on the page are for earlier inputs. */
  stale: boolean;
  /** `performance.now()` when the first heatmap was drawn (ms since the page began to load). */
  firstHeatmapMs?: number;
  numTensors?: number;
  runs: number;
  /** The last fine-tuning run of the panel (losses, similarity before and after), live while it trains. */
  fineTune?: FineTuneRun;
  /** Fine-tuning runs finished (the page's results then show the fine-tuned model). */
  fineTunes: number;
  /** The last search of the search panel. */
  search?: SearchRun;
  /** Searches finished. */
  searches: number;
  /** The causal LM the generation panel holds. */
  causalLM?: LoadedCausalLM;
  /** The last generation of the generation panel, live while it generates. */
  generation?: GenerationRun;
  /** Generations finished (stopped ones included). */
  generations: number;
  /** Actions finished (each click's, failed ones included): `numTensors` and `error` are theirs. */
  actions: number;
  error?: string;
}
