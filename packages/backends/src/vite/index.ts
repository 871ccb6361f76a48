export { attnkitWasm, type AttnkitWasmOptions } from './attnkit-wasm.js';
