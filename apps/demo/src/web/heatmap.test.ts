import { describe, expect, it } from 'vitest';
import { cellAt, heatColor } from './heatmap.js';

describe('cellAt', () => {
  const layout = { left: 40, top: 30, cell: 10, rows: 2, columns: 3 };

  it('finds the cell under a canvas pixel, edges included at the start of a cell', () => {
    expect(cellAt(layout, 40, 30)).toEqual({ row: 0, column: 0 });
    expect(cellAt(layout, 65, 45)).toEqual({ row: 1, column: 2 });
    expect(cellAt(layout, 49.9, 39.9)).toEqual({ row: 0, column: 0 });
  });

  it('is undefined over the labels, the colour scale or below the last row', () => {
    expect(cellAt(layout, 39, 35)).toBeUndefined(); // row labels
    expect(cellAt(layout, 45, 29)).toBeUndefined(); // column labels
    expect(cellAt(layout, 70, 35)).toBeUndefined(); // past the last column
    expect(cellAt(layout, 45, 50)).toBeUndefined(); // past the last row
  });
});

describe('heatColor', () => {
  it('runs from dark blue to yellow, clamping and treating NaN as the low end', () => {
    expect(heatColor(0)).toBe('rgb(68, 1, 84)');
    expect(heatColor(1)).toBe('rgb(253, 231, 37)');
    expect(heatColor(2)).toBe(heatColor(1));
    expect(heatColor(Number.NaN)).toBe(heatColor(0));
  });
});
