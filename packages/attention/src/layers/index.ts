export { MultiHeadAttentionLayer, type MultiHeadAttentionLayerArgs } from './multi-head-attention-layer.js';
