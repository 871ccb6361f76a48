export { Tokenizer, longestFirst, type EncodeOptions, type EncodedBatch, type PaddingSide, type TruncationStrategy } from './tokenizer.js';
export { loadTokenizer, type LoadTokenizerOptions } from './load-tokenizer.js';
export { lowercaseTokenizerJson } from './tokenizer-json/lowercase-tokenizer-json.js';
export { tokenizerJsonFromVocab, type WordPieceOptions } from './tokenizer-json/vocab-tokenizer-json.js';
export { checkTokenizerJson } from './tokenizer-json/check-tokenizer-json.js';
export { precompiledNormalizer } from './normalizers/precompiled-charsmap.js';
export { checkTokenizerPattern, checkTokenizerRegexes } from './regex/check-tokenizer-regexes.js';
export { regexHazard } from './regex/regex-hazard.js';
