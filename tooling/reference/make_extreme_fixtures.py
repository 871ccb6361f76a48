#!/usr/bin/env python3
"""Writes fixtures/masked-softmax-extremes.json: masked softmax at extreme scores, from PyTorch.
Run with the reference stack:  .venv-ref/bin/python tooling/reference/make_extreme_fixtures.py
The reference is torch._safe_softmax (what scaled_dot_product_attention uses since torch 2.5) on
scores with blocked entries filled with -inf (or on the scores alone, for the no-mask cases), in float64: rows with no allowed key, or only -inf
allowed, are zeros; a NaN among the allowed scores makes its row NaN; allowed scores of any size
get their exact softmax. Blocked entries hold garbage (NaN, +inf, huge values) that must not matter.
"""
import json
import math
from pathlib import Path
import torch

OUT = Path(__file__).resolve().parent / "fixtures"
INF, NAN = float("inf"), float("nan")


def number(v):
    if math.isfinite(v):
        return float(v)
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def t(x):
    if x.dtype == torch.bool:
        return {"shape": list(x.shape), "dtype": "bool", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.float().flatten().tolist()]}


def case(rows, keep):
    scores = torch.tensor(rows, dtype=torch.float32)
    mask = torch.tensor(keep, dtype=torch.bool)
    filled = scores.double().masked_fill(~mask, -INF)
    probabilities = torch._safe_softmax(filled, -1)
    return {"inputs": {"scores": t(scores), "mask": t(mask)}, "outputs": {"probabilities": t(probabilities)}}


def unmasked_case(rows):
    """No mask: every key allowed. torch._safe_softmax is what scaled_dot_product_attention applies
    to scores plus a float attn_mask, so a row of only -inf is zeros (torch.softmax would give NaN)."""
    scores = torch.tensor(rows, dtype=torch.float32)
    probabilities = torch._safe_softmax(scores.double(), -1)
    return {"inputs": {"scores": t(scores)}, "outputs": {"probabilities": t(probabilities)}}


def main():
    cases = {}
    blocked_garbage = [NAN, INF, 3e38, -INF]
    for value, name in [(-1e9, "-1e9"), (-3.4e38, "-3.4e38"), (-INF, "-Infinity"), (NAN, "NaN"), (1e30, "1e30")]:
        for width in (3, 6, 21):  # the kernels' one-, four- and sixteen-float paths
            rows, keep = [], []
            # all allowed at the value; the value beside finite scores; the value beside a blocked garbage entry
            rows.append([value] * width)
            keep.append([True] * width)
            rows.append([value if i % 2 == 0 else float(i % 5) for i in range(width)])
            keep.append([True] * width)
            rows.append([blocked_garbage[i % 4] if i % 3 == 1 else value for i in range(width)])
            keep.append([i % 3 != 1 for i in range(width)])
            rows.append([value] * (width - 1) + [0.5])
            keep.append([True] * (width - 1) + [False])  # only the extreme value is allowed
            rows.append([blocked_garbage[i % 4] for i in range(width)])
            keep.append([False] * width)  # nothing allowed
            cases[f"allowed scores {name}, S={width}"] = case(rows, keep)
            cases[f"no mask, allowed scores {name}, S={width}"] = unmasked_case(rows[:2] + [[value] * (width - 1) + [-INF], [-INF] * width])
    payload = {"generator": "tooling/reference/make_extreme_fixtures.py", "torch": torch.__version__, "cases": cases}
    (OUT / "masked-softmax-extremes.json").write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    print(f"masked-softmax-extremes.json: {len(cases)} cases")


if __name__ == "__main__":
    main()
