#!/usr/bin/env python3
"""Writes fixtures/combinations.json: attention blocks across mask layout x size, from PyTorch.

Run from the repository root with the reference virtual environment:

    .venv-ref/bin/python tooling/reference/make_combination_fixtures.py

Two blocks, each case a combination of a mask layout and sizes (B, H, T, S, D, with E = H·D):

- "sdpa": attnkit's scaledDotProductAttention(q, k, v, { mask, bias }) on q [B, H, T, D],
  k [B, H, S, D], v [B, H, S, D]; mask bool (true = may attend) in the layout the case names
  (none, padding [B, 1, 1, S] from lengths, causal [1, 1, T, S], [T, S], [B, T, S], [B, H, T, S]),
  bias float added to the scores.
- "mha": nn.MultiheadAttention with the same (copied) weights. batch_first=True cases are called
  with PyTorch's own masks (attnkit: MultiHeadAttention.callTorch); batch_first=False cases with
  attnkit's seq-first layer and its seq-first mask [T|1, S, B|1] (stored as `attentionMask`, the
  same keys as PyTorch's masks, true = may attend) and a float bias [T, S].

Reference values are the explicit math in float64: softmax(q kᵀ / √D + bias, masked) v and the
weights, with rows that have no allowed key giving zero weights (torch._safe_softmax, what
scaled_dot_product_attention uses and what attnkit documents). The script checks that math against
torch.nn.functional.scaled_dot_product_attention and torch.nn.MultiheadAttention (both in float64)
and stops if they differ; where nn.MultiheadAttention returns NaN (every key of a row blocked, with
need_weights=True) the case records "torchHasNaN" and keeps the zeros (output = out_proj.bias).

Inputs and weights are float32-representable (multiples of 1/256), so TypeScript uses identical
inputs; outputs are float64 written to 12 significant digits (the tests compare at 1e-5).
"""
import json
import math
import warnings
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

OUT = Path(__file__).resolve().parent / "fixtures"
GENERATOR = "tooling/reference/make_combination_fixtures.py"
INF = float("inf")
warnings.filterwarnings("ignore", message=".*mismatched key_padding_mask and attn_mask.*")
warnings.filterwarnings("ignore", message=".*is deprecated.*")


# ---------------------------------------------------------------- serialisation


def number(v, digits=None):
    if math.isfinite(v):
        return float(f"{v:.{digits}g}") if digits else float(v)
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def t(x, digits=None):
    x = x.detach()
    if x.dtype == torch.bool:
        return {"shape": list(x.shape), "dtype": "bool", "data": [int(v) for v in x.flatten().tolist()]}
    if x.dtype in (torch.int32, torch.int64):
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v, digits) for v in x.double().flatten().tolist()]}


def out(x):
    """A float64 reference value (12 significant digits: far below the 1e-5 tolerance)."""
    return t(x, 12)


# ---------------------------------------------------------------- inputs


def grid(generator, *shape, scale=1.0):
    """Normal values rounded to multiples of 1/256: exact in float32, short in JSON."""
    return torch.round(torch.randn(*shape, generator=generator, dtype=torch.float64) * scale * 256) / 256


def lengths_for(b, s, generator):
    """B key lengths in [0, S]: the last sequence is empty when B > 1 (a fully masked row), the first full."""
    if b == 1:
        return [s]
    return [s] + [int(torch.randint(1, s + 1, (1,), generator=generator)) for _ in range(b - 2)] + [0]


def padding_keep(lengths, s):
    return torch.arange(s)[None, :] < torch.tensor(lengths)[:, None]  # [B, S]


def causal_keep(t_len, s, offset):
    return torch.arange(s)[None, :] <= torch.arange(t_len)[:, None] + offset  # [T, S]: s <= t + offset


# ---------------------------------------------------------------- the reference math


def attend(q, k, v, keep=None, bias=None):
    """q [B, H, T, D], k [B, H, S, D], v [B, H, S, Dv]; keep bool and bias float broadcastable to [B, H, T, S]."""
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])  # [B, H, T, S]
    if bias is not None:
        scores = scores + bias
    if keep is not None:
        scores = scores.masked_fill(~keep.expand_as(scores), -INF)
    weights = torch._safe_softmax(scores, -1)  # a row with nothing allowed (or only -inf): zeros
    return weights @ v, weights


def close(a, b, what):
    if not torch.allclose(a, b, atol=1e-10, rtol=1e-10, equal_nan=True):
        raise SystemExit(f"{what}: the explicit math differs from torch by {(a - b).abs().max().item()}")


# ---------------------------------------------------------------- scaled dot-product attention


def sdpa_case(seed, layout, b, h, t_len, s, d, offset=None, bias_layout=None):
    g = torch.Generator().manual_seed(seed)
    q, k, v = grid(g, b, h, t_len, d, scale=1.5), grid(g, b, h, s, d, scale=1.5), grid(g, b, h, s, d)
    inputs = {"query": t(q), "key": t(k), "value": t(v)}
    keep = None
    if layout == "padding [B, 1, 1, S]":
        lengths = lengths_for(b, s, g)
        keep = padding_keep(lengths, s)[:, None, None, :]
        inputs["lengths"] = lengths
    elif layout == "causal [1, 1, T, S]":
        keep = causal_keep(t_len, s, offset)[None, None]
        inputs["causalOffset"] = offset
    elif layout == "[T, S]":
        keep = torch.rand(t_len, s, generator=g) < 0.7
        keep[:, 0] = True
    elif layout == "[B, T, S]":
        keep = torch.rand(b, t_len, s, generator=g) < 0.6
        keep[0, 0, :] = False  # one fully masked row
    elif layout == "[B, H, T, S]":
        keep = torch.rand(b, h, t_len, s, generator=g) < 0.6
        keep[-1, -1, -1, :] = False  # one fully masked row
    elif layout == "fully masked [B, H, T, S]":
        keep = torch.zeros(b, h, t_len, s, dtype=torch.bool)
    elif layout != "none":
        raise ValueError(layout)
    if keep is not None:
        inputs["mask"] = t(keep)
    bias = None
    if bias_layout == "[1, H, T, S]":
        bias = grid(g, 1, h, t_len, s, scale=2.0)
    elif bias_layout == "[T, S]":
        bias = grid(g, t_len, s, scale=2.0)
    elif bias_layout == "[B, 1, T, S]":
        bias = grid(g, b, 1, t_len, s, scale=2.0)
    if bias is not None:
        inputs["bias"] = t(bias)
    full_bias = None if bias is None else (bias if bias.dim() == 4 else bias[None, None])
    keep4 = None if keep is None else (keep if keep.dim() == 4 else keep[None, None] if keep.dim() == 2 else keep[:, None])
    output, weights = attend(q, k, v, keep4, full_bias)
    # PyTorch's own SDPA takes one attn_mask: the bias with blocked entries at -inf (or the bool mask)
    torch_mask = keep4
    if full_bias is not None:
        torch_mask = full_bias if keep4 is None else full_bias.masked_fill(~keep4, -INF)
    close(output, F.scaled_dot_product_attention(q, k, v, attn_mask=torch_mask), f"sdpa {layout}")
    sizes = {"B": b, "H": h, "T": t_len, "S": s, "D": d}
    name = f"sdpa, {layout}{'' if bias is None else f' + bias {bias_layout}'}, B{b} H{h} T{t_len} S{s} D{d}"
    return name, {"block": "sdpa", "layout": layout, "sizes": sizes, "inputs": inputs,
                  "outputs": {"output": out(output), "attentionWeights": out(weights)}}


# ---------------------------------------------------------------- nn.MultiheadAttention


def mha_case(seed, layout, b, h, t_len, s, d, batch_first=True, average=True, self_attention=False):
    """`layout` names PyTorch's masks: key_padding_mask and attn_mask (2-D/3-D, bool/float)."""
    e = h * d
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(e, h, batch_first=batch_first).double()
    with torch.no_grad():
        for name, parameter in mha.named_parameters():
            source = grid(g, *parameter.shape, scale=0.5) if name.endswith("bias") else grid(g, *parameter.shape, scale=1.5 / math.sqrt(e))
            parameter.copy_(source)
    mha.eval()
    x = grid(g, b, t_len, e)  # batch-first here; transposed for batch_first=False
    key = x if self_attention else grid(g, b, s, e)
    value = x if self_attention else grid(g, b, s, e)
    keep = torch.ones(b, h, t_len, s, dtype=torch.bool)
    bias = torch.zeros(b, h, t_len, s, dtype=torch.float64)
    kwargs, inputs = {}, {}
    parts = layout.split(" + ")
    for part in parts:
        if part == "key_padding_mask bool":
            lengths = lengths_for(b, s, g)
            kpm = ~padding_keep(lengths, s)  # torch: True = padding
            kwargs["key_padding_mask"] = kpm
            keep &= ~kpm[:, None, None, :]
        elif part == "key_padding_mask float":
            kpm = grid(g, b, s, scale=1.0)
            kpm[-1, -1] = -INF
            kwargs["key_padding_mask"] = kpm
            bias = bias + kpm[:, None, None, :]
        elif part == "attn_mask 2-D bool":
            blocked = ~causal_keep(t_len, s, 0)  # torch: True = blocked (is_causal's layout)
            kwargs["attn_mask"] = blocked
            keep &= ~blocked[None, None]
        elif part == "attn_mask 3-D bool":
            blocked = torch.rand(b * h, t_len, s, generator=g) < 0.4
            blocked[0, -1, :] = True  # batch 0, head 0, last query: nothing allowed
            kwargs["attn_mask"] = blocked
            keep &= ~blocked.view(b, h, t_len, s)
        elif part == "attn_mask 2-D float":
            soft = grid(g, t_len, s, scale=1.0)
            soft[0, -1] = -INF
            kwargs["attn_mask"] = soft
            bias = bias + soft[None, None]
        elif part == "attn_mask 3-D float":
            soft = grid(g, b * h, t_len, s, scale=1.0)
            kwargs["attn_mask"] = soft
            bias = bias + soft.view(b, h, t_len, s)
        elif part != "none":
            raise ValueError(part)
    for name, value_ in kwargs.items():
        inputs["keyPaddingMask" if name == "key_padding_mask" else "attnMask"] = t(value_)
    if not batch_first:
        # attnkit's seq-first layer takes one bool mask [T|1, S, B|1] (true = may attend) and a float bias [T, S]
        seq_keep = keep[:, 0].permute(1, 2, 0)  # [B, T, S] -> [T, S, B] (the cases here have no per-head mask)
        assert all(part in ("none", "key_padding_mask bool", "attn_mask 2-D bool", "attn_mask 2-D float") for part in parts), layout
        if "key_padding_mask bool" in parts and "attn_mask 2-D bool" not in parts:
            seq_keep = seq_keep[:1]  # [1, S, B]
        elif "attn_mask 2-D bool" in parts and "key_padding_mask bool" not in parts:
            seq_keep = seq_keep[:, :, :1]  # [T, S, 1]
        if "key_padding_mask bool" in parts or "attn_mask 2-D bool" in parts:
            inputs["attentionMask"] = t(seq_keep.contiguous())
        if "attn_mask 2-D float" in parts:
            inputs["attentionBias"] = t(kwargs["attn_mask"].masked_fill(kwargs["attn_mask"] == -INF, 0))
            keep &= (kwargs["attn_mask"] != -INF)[None, None]
            bias = bias.masked_fill(bias == -INF, 0)
            inputs["attentionMask"] = t((keep[:, 0].permute(1, 2, 0)).contiguous())
    # the explicit math, on the copied weights
    w, wb = mha.in_proj_weight.detach(), mha.in_proj_bias.detach()
    project = lambda z, i: (z @ w[i * e:(i + 1) * e].T + wb[i * e:(i + 1) * e]).view(b, -1, h, d).transpose(1, 2)  # [B, *, E] -> [B, H, *, D]
    heads, weights = attend(project(x, 0), project(key, 1), project(value, 2), keep, bias)
    output = heads.transpose(1, 2).reshape(b, t_len, e) @ mha.out_proj.weight.detach().T + mha.out_proj.bias.detach()  # [B, T, E]
    weights_out = weights.mean(1) if average else weights
    # the real module, on the same inputs
    if batch_first:
        q_in, k_in, v_in = x, key, value
    else:
        q_in, k_in, v_in = x.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1)  # [B, *, E] -> [*, B, E]
        if self_attention:
            k_in = v_in = q_in
    with torch.no_grad():
        torch_output, torch_weights = mha(q_in, k_in, v_in, need_weights=True, average_attn_weights=average, **kwargs)
    if not batch_first:
        torch_output = torch_output.transpose(0, 1)  # [T, B, E] -> [B, T, E]
    torch_nan = bool(torch.isnan(torch_output).any())
    finite = ~torch.isnan(torch_output)
    close(output[finite], torch_output[finite], f"mha {layout} output")
    close(weights_out[~torch.isnan(torch_weights)], torch_weights[~torch.isnan(torch_weights)], f"mha {layout} weights")
    empty = ~(keep & (bias != -INF)).any(-1).any(1)  # [B, T]: queries with no allowed key in any head
    close(output[empty], mha.out_proj.bias.detach().expand_as(output)[empty], f"mha {layout}: a fully masked row is out_proj.bias")
    stored_output = output if batch_first else output.transpose(0, 1)  # attnkit returns the layout of the query
    inputs.update({
        "query": t(q_in), "key": t(k_in), "value": t(v_in),
        "numHeads": h, "batchFirst": batch_first, "averageAttnWeights": average, "selfAttention": self_attention,
    })
    sizes = {"B": b, "H": h, "T": t_len, "S": s, "D": d}
    attention = "self" if self_attention else "cross"
    name = f"mha {'batch_first' if batch_first else 'seq-first'} {attention}, {layout}, {'averaged' if average else 'per-head'}, B{b} H{h} T{t_len} S{s} D{d}"
    weights_state = {n: t(p) for n, p in mha.state_dict().items()}
    return name, {"block": "mha", "layout": layout, "sizes": sizes, "inputs": inputs, "weights": weights_state,
                  "outputs": {"output": out(stored_output), "attentionWeights": out(weights_out)}, "torchHasNaN": torch_nan}


# ---------------------------------------------------------------- the combinations

# (B, H, T, S, D): every value of every axis (T, S in 1, 2, 7, 33; B in 1, 3; H in 1, 4; D in 1, 8)
# and the edge pairs: T=1 S=33, T=33 S=1, B=1, H=1 D=1, and B = T (= 3) with an explicit [B, 1, 1, S] mask.
SIZES = [
    (1, 1, 1, 1, 1),
    (1, 1, 1, 33, 8),
    (3, 4, 33, 1, 1),
    (3, 4, 7, 7, 8),
    (1, 4, 2, 7, 8),
    (3, 1, 7, 2, 1),
    (3, 4, 2, 33, 1),
    (1, 1, 33, 33, 8),
    (3, 1, 1, 7, 8),
    (1, 4, 33, 2, 1),
    (3, 4, 3, 7, 8),  # B = T
    (3, 1, 3, 33, 1),  # B = T
]

SDPA_LAYOUTS = [
    # (layout, bias layout, sizes indices)
    ("none", None, [0, 1, 2, 3, 7, 9]),
    ("padding [B, 1, 1, S]", None, [1, 2, 3, 5, 6, 8, 10, 11]),
    ("causal [1, 1, T, S]", None, [0, 3, 4, 6, 7, 9, 10]),
    ("[T, S]", None, [1, 4, 7, 9]),
    ("[B, T, S]", None, [2, 3, 5, 8, 10]),
    ("[B, H, T, S]", None, [0, 3, 4, 6, 9, 11]),
    ("none", "[1, H, T, S]", [1, 3, 9]),
    ("none", "[T, S]", [4, 7]),
    ("padding [B, 1, 1, S]", "[1, H, T, S]", [3, 10]),
    ("causal [1, 1, T, S]", "[B, 1, T, S]", [6, 11]),
    ("[B, H, T, S]", "[T, S]", [5, 8]),
    ("fully masked [B, H, T, S]", None, [0, 4]),
    ("fully masked [B, H, T, S]", "[1, H, T, S]", [3]),
]

MHA = [
    # (layout, sizes index, batch_first, average, self attention)
    ("none", 0, True, True, True),
    ("none", 1, True, False, False),
    ("key_padding_mask bool", 3, True, True, True),
    ("key_padding_mask bool", 6, True, False, False),
    ("key_padding_mask bool", 10, True, True, False),  # B = T: PyTorch's [B, S] padding mask
    ("key_padding_mask bool", 11, True, False, False),  # B = T
    ("attn_mask 2-D bool", 7, True, True, True),
    ("attn_mask 2-D bool", 2, True, False, False),
    ("attn_mask 3-D bool", 3, True, False, True),
    ("attn_mask 3-D bool", 5, True, True, False),
    ("attn_mask 2-D float", 4, True, True, False),
    ("attn_mask 3-D float", 8, True, False, False),
    ("key_padding_mask bool + attn_mask 2-D bool", 3, True, False, True),
    ("key_padding_mask bool + attn_mask 2-D float", 10, True, True, False),
    ("key_padding_mask bool + attn_mask 3-D float", 6, True, True, False),
    ("key_padding_mask float", 5, True, False, False),
    ("key_padding_mask float + attn_mask 2-D float", 4, True, True, False),
    ("none", 9, False, True, False),
    ("key_padding_mask bool", 3, False, True, True),
    ("key_padding_mask bool", 10, False, False, False),  # B = T, seq-first
    ("attn_mask 2-D bool", 6, False, False, False),
    ("attn_mask 2-D bool", 0, False, True, True),
    ("key_padding_mask bool + attn_mask 2-D bool", 5, False, True, False),
    ("key_padding_mask bool + attn_mask 2-D bool", 11, False, False, False),
    ("attn_mask 2-D float", 7, False, True, True),
    ("key_padding_mask bool + attn_mask 2-D float", 8, False, False, False),
]


def main():
    cases = {}
    seed = 1000
    for layout, bias_layout, indices in SDPA_LAYOUTS:
        for i in indices:
            b, h, t_len, s, d = SIZES[i]
            seed += 1
            offsets = [s - t_len, 0] if layout.startswith("causal") else [None]
            for offset in offsets[: 1 + (seed % 2 if t_len != s else 0)]:
                name, case = sdpa_case(seed, layout, b, h, t_len, s, d, offset=offset, bias_layout=bias_layout)
                if offset is not None:
                    name += f", offset {offset}"
                assert name not in cases, name
                cases[name] = case
    for layout, i, batch_first, average, self_attention in MHA:
        b, h, t_len, s, d = SIZES[i]
        if self_attention:
            s = t_len
        seed += 1
        name, case = mha_case(seed, layout, b, h, t_len, s, d, batch_first=batch_first, average=average, self_attention=self_attention)
        assert name not in cases, name
        cases[name] = case
    payload = {"generator": GENERATOR, "torch": torch.__version__, "cases": cases}
    text = json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n"
    (OUT / "combinations.json").write_text(text)
    blocks = {block: sum(c["block"] == block for c in cases.values()) for block in ("sdpa", "mha")}
    nan = sum(c.get("torchHasNaN", False) for c in cases.values())
    print(f"combinations.json: {len(cases)} cases ({blocks}), {len(text) / 1e6:.2f} MB; nn.MultiheadAttention NaN (kept as zeros) in {nan}")


if __name__ == "__main__":
    main()
