// Bytes of weights one decode step reads (the numerator of the bandwidth bound), from a model's config.json.

/** What one decode step of batch B reads of the weights: every matrix fully (whatever B is), one embedding row per token. */
export interface StepBytes {
  /** Every weight float32: 4 B a parameter. */
  readonly fp32: number;
  /** int8 weights (1 B a parameter) and one float32 scale per output row for every matrix, the tied head included; norms, biases and embedding rows float32. */
  readonly int8: number;
  /** attnkit's `quantize: 'int8'` as it loads a tied model: the Linear layers int8 with per-row scales, and the head an int8 copy of the token embedding with per-row scales (`quantizeTiedHead`): the same bytes as `int8`. */
  readonly attnkitInt8: number;
  /** Parameters in matrices (head included), in vectors (norms, biases), and in one embedding row per table. */
  readonly counts: { readonly matrices: number; readonly vectors: number; readonly rows: number; readonly head: number };
  /** Every parameter of the model (tables whole), to check this count against PyTorch's. */
  readonly parameters: number;
}

/** Llama (SmolLM-shaped) or GPT-2 config.json → the bytes of one decode step (batch 1; B rows add B − 1 embedding rows, ignored). */
export function stepBytes(config: Record<string, unknown>): StepBytes {
  const n = (key: string) => Number(config[key]);
  let matrices: [rows: number, cols: number][];
  let vectors: number;
  let rows: number;
  let width: number;
  let tables = 0; // tables besides the token embedding (which is the head), whole
  if (config['model_type'] === 'gpt2') {
    const [e, layers] = [n('n_embd'), n('n_layer')];
    const inner = Number(config['n_inner'] ?? 4 * e);
    matrices = Array.from({ length: layers }, () => [[3 * e, e], [e, e], [inner, e], [e, inner]] as [number, number][]).flat();
    vectors = layers * (3 * e + e + inner + e + 4 * e) + 2 * e; // biases, two LayerNorms (weight + bias) a layer; ln_f
    rows = 2 * e; // wte and wpe, one row each
    tables = n('n_positions') * e;
    width = e;
  } else {
    const [e, layers, inner, heads] = [n('hidden_size'), n('num_hidden_layers'), n('intermediate_size'), n('num_attention_heads')];
    const kv = Number(config['num_key_value_heads'] ?? heads) * (e / heads);
    matrices = Array.from({ length: layers }, () => [[e, e], [kv, e], [kv, e], [e, e], [inner, e], [inner, e], [e, inner]] as [number, number][]).flat();
    vectors = layers * 2 * e + e; // two RMSNorms a layer, the final norm
    rows = e; // embed_tokens, one row
    width = e;
  }
  const vocab = Number(config['vocab_size']);
  const head = vocab * width; // tied: the token embedding read as the head
  const matrix = matrices.reduce((s, [r, c]) => s + r * c, 0);
  const scales = matrices.reduce((s, [r]) => s + r, 0);
  return {
    fp32: 4 * (matrix + head + vectors + rows),
    int8: matrix + head + 4 * (scales + vocab) + 4 * (vectors + rows),
    attnkitInt8: matrix + head + 4 * (scales + vocab) + 4 * (vectors + rows),
    counts: { matrices: matrix + head, vectors, rows, head },
    parameters: matrix + head + vectors + tables,
  };
}
