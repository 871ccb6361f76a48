export { SentenceEncoder, type SentenceEncodeOptions, type SentenceEncodeFloatOptions, type SentenceEncodeQuantizedOptions, type SentenceEncodeTokenOptions } from './sentence-encoder.js';
export { loadSentenceEncoder, type LoadSentenceEncoderOptions } from './load-sentence-encoder.js';
export { readSentenceFolder, type ReadSentenceFolderOptions, type SentenceFolder, type SentenceModule } from './read-sentence-folder.js';
export { Pooling, parsePoolingConfig, type PoolingConfig } from './modules/pooling.js';
export { POOLING_MODES, POOL, poolModes, type PoolingMode } from './modules/pooling-modes.js';
export { Dense, parseDenseConfig, type DenseConfig } from './modules/dense.js';
export { l2Normalize } from './l2-normalize.js';
export { similarity, SIMILARITY_FUNCTIONS, type SimilarityFunction } from './similarity.js';
export { quantizeEmbeddings, quantizationRanges, PRECISIONS, type Precision, type QuantizedEmbeddings, type QuantizationRanges } from './quantize-embeddings.js';
