// The Vite config aliases this name to transformers.js' web build in tooling/bench/onnx (installed by the
// bench alone); the page casts it to ../transformers-types.ts.
declare module '@huggingface/transformers';
