/** The plot area of a loss curve on its canvas, in canvas pixels. */
export interface PlotBox {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Where each step's loss goes in `box`: step `i + 1` at `x = left + (i + 1) / totalSteps · width`
 * (the last step at the right edge), loss 0 at the bottom and `top` (the largest loss so far, or
 * the `ceiling` given) at the top.
 */
export function lossCurvePoints(losses: readonly number[], totalSteps: number, box: PlotBox, ceiling = Math.max(...losses, 1e-6)): Array<{ x: number; y: number }> {
  return losses.map((loss, i) => ({
    x: box.left + ((i + 1) / Math.max(1, totalSteps)) * box.width,
    y: box.top + box.height - (Math.min(Math.max(loss, 0), ceiling) / ceiling) * box.height,
  }));
}

/**
 * Draws the loss of every step so far as a line on `canvas`: loss axis from 0 to the largest loss,
 * step axis from 0 to `totalSteps`, each step a dot, the last loss written at the top right.
 *
 * @example
 * onProgress: (p) => drawLossCurve(canvas, (losses.push(p.loss), losses), p.totalSteps);
 */
export function drawLossCurve(canvas: HTMLCanvasElement, losses: readonly number[], totalSteps: number): void {
  const context = canvas.getContext('2d');
  if (context === null) return;
  const box = { left: 44, top: 22, width: canvas.width - 60, height: canvas.height - 52 };
  const ceiling = Math.max(...losses, 1e-6);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.font = '11px system-ui, sans-serif';
  context.strokeStyle = '#c4c9d2';
  context.fillStyle = '#1d2330';
  context.strokeRect(box.left, box.top, box.width, box.height);
  context.textAlign = 'right';
  context.textBaseline = 'middle';
  context.fillText(ceiling.toFixed(2), box.left - 4, box.top);
  context.fillText('0', box.left - 4, box.top + box.height);
  context.textAlign = 'center';
  context.textBaseline = 'top';
  context.fillText('0', box.left, box.top + box.height + 4);
  context.fillText(`step ${totalSteps}`, box.left + box.width, box.top + box.height + 4);
  context.fillText('loss per step', box.left + box.width / 2, box.top + box.height + 4);
  const points = lossCurvePoints(losses, totalSteps, box, ceiling);
  context.strokeStyle = '#3b528b';
  context.lineWidth = 2;
  context.beginPath();
  points.forEach(({ x, y }, i) => (i === 0 ? context.moveTo(x, y) : context.lineTo(x, y)));
  context.stroke();
  context.fillStyle = '#21918c';
  for (const { x, y } of points) context.fillRect(x - 2, y - 2, 4, 4);
  if (losses.length > 0) {
    context.fillStyle = '#1d2330';
    context.textAlign = 'right';
    context.textBaseline = 'bottom';
    context.fillText(`step ${losses.length}: loss ${losses.at(-1)!.toFixed(3)}`, box.left + box.width, box.top - 4);
  }
}
