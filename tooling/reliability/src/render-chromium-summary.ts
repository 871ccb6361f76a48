import type { OutcomeCounts } from './runner/count-outcomes.js';

/** The committed summary of the Chromium catalogue run (docs/reliability-chromium.json). */
export interface ChromiumSummary {
  /** How many catalogue cases ran (each on one or more backends). */
  readonly catalogueCases: number;
  /** Outcome counts per area × backend. */
  readonly rows: readonly OutcomeCounts[];
  /** Cases left out on a backend by a documented difference, with the reason. */
  readonly excluded: ReadonlyArray<{ readonly area: string; readonly backend: string; readonly cases: number; readonly reason: string }>;
}

/** Where the summary lives, from the repository root (the browser test reads and writes it from tooling/reliability). */
export const CHROMIUM_SUMMARY_PATH = 'docs/reliability-chromium.json';

/**
 * docs/reliability-chromium.json: what catalogue.browser.test.ts writes and checks, and
 * render-reliability.ts renders as the Chromium rows of docs/reliability.md.
 *
 * @example
 * renderChromiumSummary({ rows: countOutcomes(runs), excluded: browserExclusions });
 */
export function renderChromiumSummary(summary: ChromiumSummary): string {
  const lines = [
    '{',
    '  "generatedBy": "tooling/reliability/src/catalogue.browser.test.ts (ATTNKIT_UPDATE_DOCS=1 pnpm --filter @attnkit/reliability test:browser)",',
    `  "catalogueCases": ${summary.catalogueCases},`,
    '  "rows": [',
    ...summary.rows.map((row, i) => `    ${JSON.stringify(row)}${i < summary.rows.length - 1 ? ',' : ''}`),
    '  ],',
    '  "excluded": [',
    ...summary.excluded.map((entry, i) => `    ${JSON.stringify(entry)}${i < summary.excluded.length - 1 ? ',' : ''}`),
    '  ]',
    '}',
    '',
  ];
  return lines.join('\n');
}
