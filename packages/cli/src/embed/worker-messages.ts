/** What each worker of `attnkit embed` is started with. */
export interface WorkerSettings {
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  /** wasm threads per worker. */
  readonly threads: number;
  readonly batchSize: number;
  readonly normalize: boolean;
  readonly promptName: string | null;
}

/** Main thread → worker. */
export type WorkerRequest = { readonly type: 'embed'; readonly sequence: number; readonly texts: readonly string[] } | { readonly type: 'stop' };

/** Worker → main thread. */
export type WorkerReply =
  | { readonly type: 'ready'; readonly dim: number }
  | { readonly type: 'vectors'; readonly sequence: number; readonly vectors: Float32Array }
  | { readonly type: 'failed'; readonly sequence?: number; readonly message: string; readonly typed: boolean };
