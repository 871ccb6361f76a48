import { describeBackend, useBackend, type BackendCapabilities, type BackendName } from '@attnkit/backends';
import { formatConformanceTable, runConformance, type ConformanceResult } from '@attnkit/backends/conformance';

/** Capabilities and conformance results of each backend, as the demo prints them. */
export interface BackendReport {
  readonly capabilities: BackendCapabilities[];
  readonly conformance: ConformanceResult[];
  /** The markdown conformance table: one row per case, one column per backend. */
  readonly table: string;
}

/**
 * Brings up each backend in turn, reads its capability report and runs the conformance suite on it.
 *
 * @example
 * const { table } = await backendReport(['cpu', 'wasm']);
 */
export async function backendReport(backends: readonly BackendName[]): Promise<BackendReport> {
  const capabilities: BackendCapabilities[] = [];
  const conformance: ConformanceResult[] = [];
  for (const backend of backends) {
    await useBackend(backend);
    capabilities.push(await describeBackend());
    conformance.push(...(await runConformance()));
  }
  return { capabilities, conformance, table: formatConformanceTable(conformance) };
}
