/** Colour of `t` in [0, 1] on a dark-blue → teal → yellow scale (viridis-like, readable in print). */
export function heatColor(t: number): string {
  const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const [a, b] = [stops[i]!, stops[i + 1]!];
  const mix = (k: number) => Math.round(a[k]! + (b[k]! - a[k]!) * (x - i));
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Where a heatmap's cells are on its canvas, in canvas pixels: cell (i, j) starts at `(left + j * cell, top + i * cell)`. */
export interface HeatmapLayout {
  readonly left: number;
  readonly top: number;
  readonly cell: number;
  readonly rows: number;
  readonly columns: number;
}

/** The cell under canvas pixel `(x, y)`, or undefined between or outside the cells. */
export function cellAt(layout: HeatmapLayout, x: number, y: number): { row: number; column: number } | undefined {
  const row = Math.floor((y - layout.top) / layout.cell);
  const column = Math.floor((x - layout.left) / layout.cell);
  return row >= 0 && row < layout.rows && column >= 0 && column < layout.columns ? { row, column } : undefined;
}

/**
 * Draws `matrix [rows, columns]` as a heatmap a person can read: labels on both axes (when the
 * cells are tall enough for them), a colour scale with its range. Returns where the cells are, and
 * writes it on the canvas as `data-left`, `data-top`, `data-cell`.
 *
 * @example
 * const layout = drawHeatmap(canvas, similarity, names, names, { min: 0, max: 1 });
 */
export function drawHeatmap(canvas: HTMLCanvasElement, matrix: number[][], rowLabels: string[], columnLabels: string[], range: { min?: number; max?: number } = {}): HeatmapLayout {
  const context = canvas.getContext('2d');
  const values = matrix.flat();
  const min = range.min ?? Math.min(...values);
  const max = range.max ?? Math.max(...values);
  const left = 8 + 6.2 * Math.max(...rowLabels.map((l) => l.length));
  const top = 8 + 6.2 * Math.max(...columnLabels.map((l) => l.length));
  const scaleWidth = 44;
  const cell = Math.max(1, Math.min((canvas.width - left - scaleWidth - 8) / Math.max(1, columnLabels.length), (canvas.height - top - 8) / Math.max(1, rowLabels.length)));
  const layout = { left, top, cell, rows: rowLabels.length, columns: columnLabels.length };
  Object.assign(canvas.dataset, { left: `${left}`, top: `${top}`, cell: `${cell}` });
  if (context === null) return layout;
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.font = '11px system-ui, sans-serif';
  context.fillStyle = '#1d2330';
  matrix.forEach((row, i) =>
    row.forEach((v, j) => {
      context.fillStyle = heatColor((v - min) / (max - min || 1));
      context.fillRect(left + j * cell, top + i * cell, cell, cell);
    }),
  );
  context.fillStyle = '#1d2330';
  context.textAlign = 'right';
  context.textBaseline = 'middle';
  if (cell >= 8) rowLabels.forEach((label, i) => context.fillText(label, left - 4, top + (i + 0.5) * cell));
  if (cell >= 8) columnLabels.forEach((label, j) => {
    context.save();
    context.translate(left + (j + 0.5) * cell, top - 4);
    context.rotate(-Math.PI / 2);
    context.textAlign = 'left';
    context.fillText(label, 0, 0);
    context.restore();
  });
  const x = left + columnLabels.length * cell + 12;
  const height = rowLabels.length * cell;
  for (let k = 0; k < height; k++) {
    context.fillStyle = heatColor(1 - k / height);
    context.fillRect(x, top + k, 10, 1);
  }
  context.fillStyle = '#1d2330';
  context.textAlign = 'left';
  context.fillText(max.toFixed(2), x + 13, top + 5);
  context.fillText(min.toFixed(2), x + 13, top + height - 5);
  return layout;
}
