/** Seconds as a person reads them: `42s`, `3m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Where a long run stands. */
export interface ProgressState {
  /** Items done in this run (rows, steps). */
  readonly done: number;
  /** Share of the whole job done, 0..1, when it is known (bytes of the input read, steps of all steps). */
  readonly fraction?: number;
  /** Extra words after the rate (`loss 0.412`). */
  readonly detail?: string;
}

/**
 * One line of progress on a terminal (stderr), redrawn at most 10 times a second:
 * `embed [########------------] 40% 1 200 rows 85.3/s ETA 1m10s`. Draws nothing when the stream is
 * not a TTY (a log file, a pipe, CI), so redirected output stays clean.
 *
 * @example
 * const bar = progressBar('embed', 'rows');
 * bar.update({ done: 120, fraction: 0.4 });
 * bar.finish();
 */
export function progressBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr, now: () => number = () => performance.now()) {
  const started = now();
  let last = -Infinity;
  let drawn = false;
  const render = ({ done, fraction, detail }: ProgressState): string => {
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const parts = [label];
    if (fraction !== undefined) {
      const width = 24;
      const filled = Math.min(width, Math.max(0, Math.round(fraction * width)));
      parts.push(`[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(100 * Math.min(1, fraction))}%`);
    }
    parts.push(`${done} ${unit}`, `${rate.toFixed(1)}/s`);
    if (detail !== undefined) parts.push(detail);
    if (fraction !== undefined && fraction > 0 && fraction < 1) parts.push(`ETA ${formatDuration((seconds * (1 - fraction)) / fraction)}`);
    return parts.join(' ');
  };
  return {
    /** Redraws the line (throttled); a no-op off a TTY. */
    update(state: ProgressState): void {
      if (stream.isTTY !== true || now() - last < 100) return;
      last = now();
      drawn = true;
      stream.write(`\r${render(state).slice(0, Math.max(20, (stream.columns ?? 100) - 1))}\u001b[K`);
    },
    /** Ends the line, if one was drawn. */
    finish(): void {
      if (drawn) stream.write('\n');
      drawn = false;
    },
    render,
  };
}
