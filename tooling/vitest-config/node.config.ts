import { defineConfig } from 'vitest/config';
import { serverConditions } from './source-conditions.js';

/** Unit and backend tests in Node (cpu and wasm): every `src/**\/*.test.ts` of a package. */
export default defineConfig({
  resolve: { conditions: serverConditions },
  ssr: { resolve: { conditions: serverConditions } },
  test: {
    include: ['src/**/*.test.ts'],
    exclude: ['src/**/*.browser.test.ts', 'node_modules/**', 'dist/**'],
    environment: 'node',
    setupFiles: [new URL('./setup-node.ts', import.meta.url).pathname],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
