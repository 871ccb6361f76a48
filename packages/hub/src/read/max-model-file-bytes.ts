/** The largest model file attnkit reads (2 GiB: Node's readFile limit, and more than any one file of a model it builds; larger checkpoints come in shards). */
export const MAX_MODEL_FILE_BYTES = 2 ** 31 - 1;
