"""Writes tooling/reference/fixtures/training.json: reference values for @attnkit/train.

Run from the repository root with the reference virtual environment:

    .venv-ref/bin/python tooling/reference/make_training_fixtures.py

Every value comes from the real libraries, in float64:

- ``mnrl ...``: sentence-transformers' ``MultipleNegativesRankingLoss`` (default directions and
  partition mode) called through its ``forward`` on a stub model whose ``sentence_embedding`` is the
  given embedding; the loss and its gradients with respect to the anchors, positives and negatives.
- ``cosine ...``: sentence-transformers' ``CosineSimilarityLoss`` the same way.
- ``adamw ...``: ``torch.optim.AdamW`` trajectories over fixed per-step gradients (one with
  Hugging Face Trainer parameter groups, ``get_linear_schedule_with_warmup`` and ``clip_grad_norm_``),
  the parameters after every step, the learning rate used at every step and the final state.
- ``schedule ...``: the multipliers of ``get_linear_schedule_with_warmup`` read from its ``LambdaLR``.
- ``clip ...``: ``torch.nn.utils.clip_grad_norm_`` (norm above, below and equal to the maximum; a zero gradient).

Inputs are drawn in float32 (so they are exact in the TypeScript float32 implementation) and computed
on in float64. No network is used.
"""
import json
import math
from pathlib import Path

import sentence_transformers
import torch
import torch.nn as nn
import transformers
from sentence_transformers.sentence_transformer.losses import CosineSimilarityLoss, MultipleNegativesRankingLoss
from transformers.optimization import get_linear_schedule_with_warmup

OUT = Path(__file__).resolve().parent / "fixtures" / "training.json"
GENERATOR = "tooling/reference/make_training_fixtures.py"


def t(x):
    """A float tensor as the TS reader expects it, at full (float64) precision."""
    x = x.detach().cpu().double()
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.flatten().tolist()]}


def number(v):
    if math.isfinite(v):
        return float(v)
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def draw(generator, *shape, scale=1.0):
    """float32 values (exact in TypeScript), returned as float64."""
    return (torch.randn(*shape, generator=generator) * scale).float().double()


class Stub(nn.Module):
    """A model whose sentence embedding is the given embedding: the loss classes run unchanged on it."""

    def forward(self, features):
        return {"sentence_embedding": features["embedding"]}


# ---------------------------------------------------------------- losses


def mnrl_case(seed, batch, width, scale, negatives):
    g = torch.Generator().manual_seed(seed)
    anchors = draw(g, batch, width).requires_grad_()
    positives = draw(g, batch, width).requires_grad_()
    hard = [draw(g, batch, width).requires_grad_() for _ in range(negatives)]
    loss_fn = MultipleNegativesRankingLoss(Stub(), scale=scale)
    assert loss_fn.directions == ("query_to_doc",) and loss_fn.partition_mode == "joint" and loss_fn.hardness_mode is None
    loss = loss_fn([{"embedding": x} for x in [anchors, positives, *hard]], None)
    loss.backward()
    inputs = {"anchors": t(anchors), "positives": t(positives), "scale": scale, "negatives": negatives}
    outputs = {"loss": t(loss), "grad.anchors": t(anchors.grad), "grad.positives": t(positives.grad)}
    for i, h in enumerate(hard):
        inputs[f"negative{i}"] = t(h)
        outputs[f"grad.negative{i}"] = t(h.grad)
    return {"inputs": inputs, "outputs": outputs}


def cosine_case(seed, batch, width, signed):
    g = torch.Generator().manual_seed(seed)
    a = draw(g, batch, width).requires_grad_()
    b = draw(g, batch, width).requires_grad_()
    low = -1.0 if signed else 0.0
    labels = (low + (1 - low) * torch.rand(batch, generator=g)).float().double()
    loss = CosineSimilarityLoss(Stub())([{"embedding": a}, {"embedding": b}], labels)
    loss.backward()
    return {
        "inputs": {"a": t(a), "b": t(b), "labels": t(labels)},
        "outputs": {"loss": t(loss), "grad.a": t(a.grad), "grad.b": t(b.grad)},
    }


# ---------------------------------------------------------------- optimiser


def parameters(g):
    """Three small named parameters, as a BERT layer names them."""
    return {
        "dense.weight": draw(g, 3, 4),
        "dense.bias": draw(g, 3),
        "LayerNorm.weight": 1 + 0.1 * draw(g, 4),
    }


def adamw_case(seed, steps, lr, weight_decay, hf_groups, warmup, max_norm, skip):
    """`skip`: (step, name) pairs whose gradient is None on that step (torch leaves the parameter alone)."""
    g = torch.Generator().manual_seed(seed)
    initial = parameters(g)
    params = {name: value.clone().requires_grad_() for name, value in initial.items()}
    gradients = [{name: draw(g, *p.shape, scale=0.5 if max_norm is None else 2.0) for name, p in params.items()} for _ in range(steps)]
    if hf_groups:
        # transformers.Trainer.create_optimizer: no decay for biases and norm weights
        no_decay = [n for n in params if "bias" in n.lower() or "layernorm" in n.lower()]
        groups = [
            {"params": [p for n, p in params.items() if n not in no_decay], "weight_decay": weight_decay},
            {"params": [p for n, p in params.items() if n in no_decay], "weight_decay": 0.0},
        ]
        optimizer = torch.optim.AdamW(groups, lr=lr)
    else:
        optimizer = torch.optim.AdamW(params.values(), lr=lr, weight_decay=weight_decay)
    scheduler = None if warmup is None else get_linear_schedule_with_warmup(optimizer, warmup["warmupSteps"], warmup["totalSteps"])
    trajectory = {name: [] for name in params}
    lrs, norms = [], []
    for step in range(steps):
        for name, p in params.items():
            p.grad = None if (step, name) in skip else gradients[step][name].clone()
        if max_norm is not None:
            norms.append(float(torch.nn.utils.clip_grad_norm_(list(params.values()), max_norm)))
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        for name, p in params.items():
            trajectory[name].append(p.detach().clone())
    state = {name: optimizer.state[p] for name, p in params.items()}
    inputs = {
        "learningRate": lr,
        "weightDecay": weight_decay,
        "hfGroups": hf_groups,
        "schedule": warmup,
        "maxNorm": max_norm,
        "skip": [[s, n] for s, n in skip],
        "steps": steps,
    }
    for name, value in initial.items():
        inputs[f"initial.{name}"] = t(value)
        inputs[f"gradients.{name}"] = t(torch.stack([gradients[s][name] for s in range(steps)]))
    outputs = {"lr": t(torch.tensor(lrs, dtype=torch.float64))}
    if max_norm is not None:
        outputs["totalNorm"] = t(torch.tensor(norms, dtype=torch.float64))
    for name in params:
        outputs[f"trajectory.{name}"] = t(torch.stack(trajectory[name]))
        outputs[f"state.{name}.exp_avg"] = t(state[name]["exp_avg"])
        outputs[f"state.{name}.exp_avg_sq"] = t(state[name]["exp_avg_sq"])
        outputs[f"state.{name}.step"] = t(torch.tensor([float(state[name]["step"])], dtype=torch.float64))
    return {"inputs": inputs, "outputs": outputs}


def schedule_case(warmup_steps, total_steps, steps):
    p = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([p], lr=1.0)
    scheduler = get_linear_schedule_with_warmup(optimizer, warmup_steps, total_steps)
    multipliers = []
    for _ in range(steps):
        multipliers.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return {
        "inputs": {"warmupSteps": warmup_steps, "totalSteps": total_steps},
        "outputs": {"multipliers": t(torch.tensor(multipliers, dtype=torch.float64))},
    }


def clip_case(gradients, max_norm):
    params = {}
    for name, grad in gradients.items():
        p = torch.zeros_like(grad, requires_grad=True)
        p.grad = grad.clone()
        params[name] = p
    total = torch.nn.utils.clip_grad_norm_(list(params.values()), max_norm)
    inputs = {"maxNorm": max_norm}
    outputs = {"totalNorm": t(total.reshape(1))}
    for name, p in params.items():
        inputs[f"gradient.{name}"] = t(gradients[name])
        outputs[f"clipped.{name}"] = t(p.grad)
    return {"inputs": inputs, "outputs": outputs}


def main():
    torch.set_default_dtype(torch.float64)
    cases = {
        "mnrl B=4 E=8 scale 20": mnrl_case(1, 4, 8, 20.0, 0),
        "mnrl B=5 E=16 scale 50": mnrl_case(2, 5, 16, 50.0, 0),
        "mnrl B=3 E=6 scale 1": mnrl_case(3, 3, 6, 1.0, 0),
        "mnrl B=1 E=4 scale 20": mnrl_case(4, 1, 4, 20.0, 0),
        "mnrl B=4 E=8 scale 20 one negative": mnrl_case(5, 4, 8, 20.0, 1),
        "mnrl B=3 E=12 scale 30 two negatives": mnrl_case(6, 3, 12, 30.0, 2),
        "cosine B=4 E=8 labels 0..1": cosine_case(7, 4, 8, False),
        "cosine B=6 E=5 labels -1..1": cosine_case(8, 6, 5, True),
        "adamw torch defaults (lr 1e-3, wd 0.01, one group), bias skipped on step 4": adamw_case(9, 8, 1e-3, 0.01, False, None, None, {(3, "dense.bias")}),
        "adamw Trainer groups, wd 0.1, warmup 3 of 10, clip 1.0": adamw_case(10, 10, 5e-2, 0.1, True, {"warmupSteps": 3, "totalSteps": 10}, 1.0, set()),
        "schedule warmup 0 total 5": schedule_case(0, 5, 8),
        "schedule warmup 3 total 10": schedule_case(3, 10, 12),
        "schedule warmup 5 total 5": schedule_case(5, 5, 7),
        "schedule warmup 0 total 0": schedule_case(0, 0, 3),
    }
    g = torch.Generator().manual_seed(11)
    two = {"weight": draw(g, 3, 4), "bias": draw(g, 3)}
    cases["clip norm above max"] = clip_case(two, 1.0)
    cases["clip norm below max"] = clip_case(two, 100.0)
    cases["clip norm equal to max"] = clip_case({"weight": torch.tensor([[3.0, 0.0], [0.0, 4.0]])}, 5.0)
    cases["clip zero gradient"] = clip_case({"weight": torch.zeros(2, 3), "bias": torch.zeros(3)}, 1.0)
    payload = {
        "generator": GENERATOR,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "sentence_transformers": sentence_transformers.__version__,
        "cases": cases,
    }
    OUT.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    print(f"{OUT.name}: {len(cases)} cases, {OUT.stat().st_size / 1e3:.1f} KB")


if __name__ == "__main__":
    main()
