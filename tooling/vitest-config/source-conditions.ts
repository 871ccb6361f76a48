import { defaultClientConditions, defaultServerConditions } from 'vite';

/**
 * The export condition every @attnkit package points at `src/index.ts`, so tests and the demo run
 * on sources without a build. It must come first: conditions are matched in package order, and
 * "types" (first in every manifest) is not a runtime condition.
 */
export const SOURCE_CONDITION = '@attnkit/source';
export const clientConditions = [SOURCE_CONDITION, ...defaultClientConditions];
export const serverConditions = [SOURCE_CONDITION, ...defaultServerConditions];
