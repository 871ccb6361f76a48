/**
 * transformers' logits processors and warpers on one row of scores (a `Float64Array` `[V]`, changed in
 * place), in the order `generate` applies them: the repetition penalty (greedy too), then, when
 * sampling, temperature, top-k, top-p and min-p. A removed token's score is `-Infinity`
 * (`filter_value`); each filter keeps at least one token (`min_tokens_to_keep = 1`).
 */

/** `RepetitionPenaltyLogitsProcessor`: the score of every token in `seen` divided by `penalty` when positive, multiplied when negative. */
export function applyRepetitionPenalty(scores: Float64Array, seen: Iterable<number>, penalty: number): void {
  for (const id of seen) {
    const s = scores[id] as number;
    scores[id] = s < 0 ? s * penalty : s / penalty;
  }
}

/** `TemperatureLogitsWarper`: scores divided by `temperature`. */
export function applyTemperature(scores: Float64Array, temperature: number): void {
  for (let i = 0; i < scores.length; i++) scores[i] = (scores[i] as number) / temperature;
}

/** `TopKLogitsWarper`: only scores ≥ the k-th largest are kept (ties kept, as `scores < topk[-1]` removes). */
export function applyTopK(scores: Float64Array, k: number): void {
  if (k <= 0 || k >= scores.length) return;
  const threshold = kthLargest(Float64Array.from(scores), k);
  for (let i = 0; i < scores.length; i++) if ((scores[i] as number) < threshold) scores[i] = -Infinity;
}

/** `TopPLogitsWarper`: the smallest set of most likely tokens whose probabilities add up past `topP` (sorted ascending, `cumsum ≤ 1 − top_p` removed). */
export function applyTopP(scores: Float64Array, topP: number): void {
  if (topP >= 1) return;
  const kept = finiteIndices(scores).sort((a, b) => (scores[a] as number) - (scores[b] as number)); // ascending, as transformers sorts
  const probabilities = softmaxOf(scores, kept);
  let cumulative = 0;
  for (let j = 0; j < kept.length - 1; j++) { // the most likely token always stays
    cumulative += probabilities[j] as number;
    if (cumulative <= 1 - topP) scores[kept[j] as number] = -Infinity;
  }
}

/** `MinPLogitsWarper`: tokens less likely than `minP` times the most likely one are removed. */
export function applyMinP(scores: Float64Array, minP: number): void {
  if (minP <= 0) return;
  const kept = finiteIndices(scores);
  const probabilities = softmaxOf(scores, kept);
  let top = 0;
  for (const p of probabilities) top = Math.max(top, p); // a loop: V may pass the arguments a call takes
  const threshold = minP * top;
  kept.forEach((index, j) => {
    if ((probabilities[j] as number) < threshold) scores[index] = -Infinity;
  });
}

/** The indices of the finite scores (those no filter removed). */
export function finiteIndices(scores: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < scores.length; i++) if ((scores[i] as number) > -Infinity) out.push(i);
  return out;
}

/** The softmax of `scores` over `indices` (in their order), subtracting the maximum first. */
export function softmaxOf(scores: Float64Array, indices: readonly number[]): Float64Array {
  let top = -Infinity;
  for (const i of indices) top = Math.max(top, scores[i] as number);
  const out = Float64Array.from(indices, (i) => Math.exp((scores[i] as number) - top));
  let sum = 0;
  for (const p of out) sum += p;
  for (let j = 0; j < out.length; j++) out[j] = (out[j] as number) / sum;
  return out;
}

/** The k-th largest value (1-based) of `values` (reordered in place): quickselect, O(V). */
function kthLargest(values: Float64Array, k: number): number {
  let [lo, hi, target] = [0, values.length - 1, k - 1];
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1] as number;
    let [i, j] = [lo, hi];
    while (i <= j) {
      while ((values[i] as number) > pivot) i++;
      while ((values[j] as number) < pivot) j--;
      if (i <= j) {
        [values[i], values[j]] = [values[j] as number, values[i] as number];
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target] as number;
  }
  return values[target] as number;
}
