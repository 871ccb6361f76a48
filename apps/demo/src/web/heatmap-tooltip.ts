import { cellAt, type HeatmapLayout } from './heatmap.js';

/** What a heatmap shows, for its tooltip: the values `[rows, columns]`, the axis labels and how to word a cell. */
export interface HeatmapValues {
  readonly matrix: number[][];
  readonly layout: HeatmapLayout;
  /** The tooltip's text of cell (row, column) holding `value`. */
  readonly describe: (row: number, column: number, value: number) => string;
}

const shown = new WeakMap<HTMLCanvasElement, HeatmapValues>();

/**
 * Shows the labels and value of the heatmap cell under the pointer in `tooltip` (a fixed-position
 * element), for every canvas given to the returned function; a canvas drawn again is given again
 * with its new values. The tooltip carries the cell's `data-row`, `data-column` and `data-value`.
 *
 * @example
 * const showValues = heatmapTooltip(document.getElementById('tooltip')!);
 * showValues(canvas, { matrix, layout: drawHeatmap(canvas, matrix, names, names), describe: (i, j, v) => `${i} × ${j}: ${v}` });
 */
export function heatmapTooltip(tooltip: HTMLElement): (canvas: HTMLCanvasElement, values: HeatmapValues) => void {
  const hide = () => void (tooltip.hidden = true);
  const move = (event: MouseEvent) => {
    const canvas = event.currentTarget as HTMLCanvasElement;
    const values = shown.get(canvas);
    // offsetX/Y are CSS pixels inside the padding box; the canvas may be drawn at another size
    const cell = values && cellAt(values.layout, (event.offsetX * canvas.width) / (canvas.clientWidth || canvas.width), (event.offsetY * canvas.height) / (canvas.clientHeight || canvas.height));
    if (values === undefined || cell === undefined) return hide();
    const value = values.matrix[cell.row]![cell.column]!;
    tooltip.textContent = values.describe(cell.row, cell.column, value);
    Object.assign(tooltip.dataset, { row: `${cell.row}`, column: `${cell.column}`, value: `${value}` });
    tooltip.style.left = `${event.clientX + 14}px`;
    tooltip.style.top = `${event.clientY + 14}px`;
    tooltip.hidden = false;
  };
  return (canvas, values) => {
    if (!shown.has(canvas)) {
      canvas.addEventListener('mousemove', move);
      canvas.addEventListener('mouseleave', hide);
    }
    shown.set(canvas, values);
  };
}
