"""Writes tooling/reference/fixtures/decoder-blocks.json: reference values for the decoder blocks.

Run from the repository root with the reference virtual environment (torch, transformers 5.17):

    .venv-ref/bin/python tooling/reference/make_decoder_block_fixtures.py

Every value comes from transformers' own classes and functions; no network is used, every tensor is
drawn from a fixed seed. Case names start with the block they check (the tests count them):

- ``rms_norm ...``: ``LlamaRMSNorm`` and Gemma's ``GemmaRMSNorm`` (``1 + weight``); values and
  gradients of the input and the weight.
- ``gated_mlp ...``: ``LlamaMLP`` (``down_proj(act(gate_proj(x)) * up_proj(x))``), SwiGLU and GeGLU,
  with and without ``mlp_bias``; values and gradients of the input and every weight.
- ``rope ...``: ``inv_freq`` and ``attention_scaling`` from ``ROPE_INIT_FUNCTIONS`` (``default``: the
  rotary module's ``compute_default_rope_parameters``), and the ``cos`` / ``sin`` the rotary module
  returns for per-row position ids, call after call (``dynamic`` grows, keeps and resets its
  frequencies between calls, which the fixture records).
- ``apply_rotary ...``: ``apply_rotary_pos_emb`` (Llama's; GPT-NeoX's for a partial rotary dimension);
  values and gradients of q and k.
- ``repeat_kv ...``: ``repeat_kv``; values and the gradient of its input.
- ``attention ...``: a tiny ``LlamaAttention`` (grouped-query, biases, llama3 RoPE) and
  ``Qwen3Attention`` layers (multi-query with q/k RMSNorm; grouped-query with a sliding window and
  yarn RoPE), eager attention, with a left-padded batch, the mask from ``create_causal_mask`` /
  ``create_sliding_window_causal_mask``: output, attention weights, and the gradients of every
  parameter and of the hidden states.
- ``mask ...``: the bool masks (true = may attend) ``create_causal_mask`` and
  ``create_sliding_window_causal_mask`` build for sdpa, with left padding and a cache of past keys.

Precision: weights and float inputs are drawn in float32 (exact in the TypeScript float32
implementation); modules and inputs are then cast to float64 and the forward and backward passes
run in float64, except where transformers itself computes in float32 whatever the input dtype: the
RMSNorms (``hidden_states.to(torch.float32)``) and the rotary tables (``inv_freq`` and ``cos`` /
``sin`` are float32 by construction). Gradients come from loss = sum(output * cotangent), the
cotangent a stored float32 input. The attention cases add the float mask transformers builds for a
float32 model (``finfo(float32).min`` where blocked; float64's minimum plus a negative score overflows
to -inf, and eager attention then turns a padded query row into NaN). In the attention cases the cotangent is zero on the padded query
rows: transformers' eager attention spreads a fully masked row uniformly over the keys, attnkit's
masked softmax gives it zeros (its documented behaviour), and neither is a token's output.
"""
import copy
import json
from pathlib import Path

import torch
import torch.nn as nn
import transformers
from transformers import GPTNeoXConfig, LlamaConfig, MistralConfig, Qwen3Config
from transformers.cache_utils import DynamicCache
from transformers.masking_utils import create_causal_mask, create_sliding_window_causal_mask
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.gemma.modeling_gemma import GemmaRMSNorm
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding
from transformers.models.gpt_neox.modeling_gpt_neox import apply_rotary_pos_emb as neox_apply_rotary_pos_emb
from transformers.models.llama.modeling_llama import (
    LlamaAttention,
    LlamaMLP,
    LlamaRMSNorm,
    LlamaRotaryEmbedding,
    apply_rotary_pos_emb,
    repeat_kv,
)
from transformers.models.qwen3.modeling_qwen3 import Qwen3Attention, Qwen3RotaryEmbedding

from make_nn_fixtures import t

OUT = Path(__file__).resolve().parent / "fixtures"
GENERATOR = "tooling/reference/make_decoder_block_fixtures.py"


def scalar(v):
    return t(torch.tensor([v], dtype=torch.float64))


def run(module, call, tensors, grad_inputs=(), cotangent_seed=0, cotangent_mask=None):
    """call(module, tensors) -> {name: output} in float64, with the gradients of sum(output * cotangent).

    Every output gets a cotangent (float32 randn, multiplied by cotangent_mask[name] when given).
    Returns (inputs, weights, outputs) as the fixture stores them.
    """
    m = copy.deepcopy(module).double() if module is not None else None
    xs = {k: (v.detach().double().requires_grad_(k in grad_inputs) if v.is_floating_point() else v) for k, v in tensors.items()}
    outs = call(m, xs)
    g = torch.Generator().manual_seed(cotangent_seed)
    cotangents = {n: torch.randn(o.shape, generator=g) for n, o in outs.items()}
    for n, keep in (cotangent_mask or {}).items():
        cotangents[n] = cotangents[n] * keep
    loss = sum((outs[n] * c.double()).sum() for n, c in cotangents.items())
    loss.backward()
    outputs = {n: t(o) for n, o in outs.items()}
    for k, p in (m.named_parameters() if m is not None else []):
        outputs[f"grad.{k}"] = t(p.grad if p.grad is not None else torch.zeros_like(p))
    for k in grad_inputs:
        outputs[f"grad.{k}"] = t(xs[k].grad)
    inputs = {k: t(v) for k, v in tensors.items()}
    if len(cotangents) == 1:
        inputs["cotangent"] = t(next(iter(cotangents.values())))
    else:
        inputs.update({f"cotangent.{n}": t(c) for n, c in cotangents.items()})
    weights = {k: t(p) for k, p in module.named_parameters()} if module is not None else {}
    return inputs, weights, outputs


def case(module, call, tensors, flags, grad_inputs=(), seed=0, cotangent_mask=None):
    inputs, weights, outputs = run(module, call, tensors, grad_inputs, seed + 1000, cotangent_mask)
    inputs.update(flags)
    return {"inputs": inputs, "weights": weights, "outputs": outputs}


# ---------------------------------------------------------------- RMSNorm and the gated MLP


def rms_norm_cases(cases):
    x_call = lambda m, xs: {"output": m(xs["x"])}
    specs = [
        ("rms_norm llama 8 eps 1e-6", 601, lambda: LlamaRMSNorm(8, eps=1e-6), 1.0, "RMSNorm"),
        ("rms_norm llama 8 eps 1e-5 small inputs", 602, lambda: LlamaRMSNorm(8, eps=1e-5), 3e-3, "RMSNorm"),
        ("rms_norm gemma 8 eps 1e-6", 603, lambda: GemmaRMSNorm(8, eps=1e-6), 1.0, "GemmaRMSNorm"),
    ]
    for name, seed, make, scale, kind in specs:
        torch.manual_seed(seed)
        m = make()
        with torch.no_grad():  # Llama starts at 1, Gemma at 0: move both away from their init
            m.weight.copy_(m.weight + 0.1 * torch.randn(8) + (0.0 if kind == "RMSNorm" else 0.05))
        x = (torch.randn(2, 3, 8) * 3 + torch.tensor([[[1.0]], [[-0.5]]])) * scale
        eps = m.variance_epsilon if kind == "RMSNorm" else m.eps
        cases[name] = case(m, x_call, {"x": x}, {"eps": eps, "kind": kind}, ["x"], seed)


def gated_mlp_cases(cases):
    x_call = lambda m, xs: {"output": m(xs["x"])}
    for seed, act, bias in [(611, "silu", False), (612, "gelu_pytorch_tanh", True), (613, "gelu", False)]:
        torch.manual_seed(seed)
        config = LlamaConfig(hidden_size=8, num_attention_heads=2, intermediate_size=12, hidden_act=act, mlp_bias=bias)
        m = LlamaMLP(config)
        if bias:
            with torch.no_grad():
                for sub in (m.gate_proj, m.up_proj, m.down_proj):
                    sub.bias.copy_(0.1 * torch.randn(sub.bias.shape))
        name = f"gated_mlp {act} 8->12->8{' bias' if bias else ''}"
        cases[name] = case(m, x_call, {"x": torch.randn(2, 3, 8)}, {"activation": act, "bias": bias, "embed_dim": 8, "feed_forward_dim": 12}, ["x"], seed)


# ---------------------------------------------------------------- rotary position embeddings


def rope_config_json(config):
    """The keys of a config.json that the rotary embedding reads."""
    out = {"max_position_embeddings": config.max_position_embeddings, "rope_parameters": dict(config.rope_parameters)}
    if getattr(config, "head_dim", None) is not None:
        out["head_dim"] = config.head_dim
    else:
        out.update(hidden_size=config.hidden_size, num_attention_heads=config.num_attention_heads)
    return out


def rope_cases(cases):
    specs = [
        # name, config, rotary class, calls (position ids, one [B, T] per call)
        ("rope default llama theta 10000 D8",
         LlamaConfig(hidden_size=32, num_attention_heads=4, head_dim=8, max_position_embeddings=64, rope_parameters={"rope_type": "default", "rope_theta": 10000.0}),
         LlamaRotaryEmbedding, [[[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]]]),
        ("rope default partial 0.5 gpt-neox D16",
         GPTNeoXConfig(hidden_size=32, num_attention_heads=2, max_position_embeddings=64, rotary_pct=0.5, rotary_emb_base=10000),
         GPTNeoXRotaryEmbedding, [[[0, 0, 1, 2, 3], [0, 1, 2, 3, 4]]]),
        ("rope linear factor 4 partial 0.5 D16",
         LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, max_position_embeddings=64, rope_parameters={"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0, "partial_rotary_factor": 0.5}),
         LlamaRotaryEmbedding, [[[0, 0, 0, 1, 2], [60, 61, 62, 63, 64]]]),
        ("rope dynamic factor 2 theta 100 D8 grow keep reset",
         LlamaConfig(hidden_size=32, num_attention_heads=4, head_dim=8, max_position_embeddings=16, rope_parameters={"rope_type": "dynamic", "factor": 2.0, "rope_theta": 100.0}),
         LlamaRotaryEmbedding, [[[0, 3, 7, 12], [1, 2, 3, 4]], [[37, 38, 39, 40], [0, 0, 1, 2]], [[27, 28, 29, 30], [3, 4, 5, 6]], [[5, 6, 7, 9], [0, 1, 2, 3]]]),
        ("rope llama3 factor 8 D16",
         LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, max_position_embeddings=256, rope_parameters={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 64, "rope_theta": 10000.0}),
         LlamaRotaryEmbedding, [[[0, 0, 1, 2, 3], [100, 101, 102, 103, 104]]]),
        ("rope yarn factor 4 D16",
         LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, max_position_embeddings=64, rope_parameters={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16, "rope_theta": 10000.0}),
         LlamaRotaryEmbedding, [[[0, 0, 1, 2, 3], [40, 41, 42, 43, 44]]]),
        ("rope yarn mscale beta truncate false D16",
         LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, max_position_embeddings=128, rope_parameters={"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 16, "rope_theta": 50000.0, "beta_fast": 16.0, "beta_slow": 2.0, "mscale": 0.707, "mscale_all_dim": 1.0, "truncate": False}),
         LlamaRotaryEmbedding, [[[0, 1, 2, 3, 4], [0, 0, 0, 90, 91]]]),
        ("rope yarn attention_factor partial 0.5 D16",
         LlamaConfig(hidden_size=64, num_attention_heads=4, head_dim=16, max_position_embeddings=64, rope_parameters={"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 32, "attention_factor": 0.8, "rope_theta": 10000.0, "partial_rotary_factor": 0.5}),
         LlamaRotaryEmbedding, [[[0, 1, 2, 3, 4], [0, 0, 0, 1, 2]]]),
    ]
    for name, config, rotary_class, calls in specs:
        rotary = rotary_class(config)
        rope_type = config.rope_parameters["rope_type"]
        init = rotary.compute_default_rope_parameters if rope_type == "default" else ROPE_INIT_FUNCTIONS[rope_type]
        inv_freq, attention_scaling = init(config)
        assert torch.equal(inv_freq, rotary.inv_freq) and attention_scaling == rotary.attention_scaling, name
        inputs = {"config": rope_config_json(config), "calls": len(calls)}
        outputs = {"inv_freq": t(inv_freq), "attention_scaling": scalar(attention_scaling)}
        x = torch.zeros(1)
        for i, positions in enumerate(calls):
            position_ids = torch.tensor(positions, dtype=torch.int64)
            cos, sin = rotary(x, position_ids)
            inputs[f"position_ids.{i}"] = t(position_ids)
            outputs[f"cos.{i}"] = t(cos)
            outputs[f"sin.{i}"] = t(sin)
            outputs[f"inv_freq.{i}"] = t(rotary.inv_freq)  # after the call: dynamic may have changed it
            outputs[f"attention_scaling.{i}"] = scalar(rotary.attention_scaling)
        cases[name] = {"inputs": inputs, "weights": {}, "outputs": outputs}
        print(f"  {name}: inv_freq {[round(v, 6) for v in inv_freq.tolist()]}, attention_scaling {attention_scaling}")


def apply_rotary_cases(cases):
    specs = [
        ("apply_rotary llama q[2,4,5,8] k[2,2,5,8]", 621,
         LlamaRotaryEmbedding(LlamaConfig(hidden_size=32, num_attention_heads=4, head_dim=8, max_position_embeddings=64, rope_parameters={"rope_type": "default", "rope_theta": 100.0})),
         apply_rotary_pos_emb, (2, 4, 5, 8), (2, 2, 5, 8)),
        ("apply_rotary partial gpt-neox 4 of 8 q[2,3,5,8] k[2,1,5,8]", 622,
         GPTNeoXRotaryEmbedding(GPTNeoXConfig(hidden_size=24, num_attention_heads=3, max_position_embeddings=64, rotary_pct=0.5, rotary_emb_base=100)),
         neox_apply_rotary_pos_emb, (2, 3, 5, 8), (2, 1, 5, 8)),
    ]
    for name, seed, rotary, apply, q_shape, k_shape in specs:
        torch.manual_seed(seed)
        position_ids = torch.tensor([[0, 0, 0, 1, 2], [3, 4, 5, 6, 7]])
        cos, sin = rotary(torch.zeros(1), position_ids)

        def call(_, xs):
            q, k = apply(xs["query"], xs["key"], xs["cos"], xs["sin"])
            return {"query": q, "key": k}

        tensors = {"query": torch.randn(q_shape), "key": torch.randn(k_shape), "cos": cos, "sin": sin}
        cases[name] = case(None, call, tensors, {"rotary_dim": cos.shape[-1]}, ["query", "key"], seed)


def repeat_kv_cases(cases):
    for seed, n_rep in [(631, 2), (632, 3)]:
        torch.manual_seed(seed)
        call = lambda _, xs, n=n_rep: {"output": repeat_kv(xs["x"], n)}
        cases[f"repeat_kv [2,2,3,4] x{n_rep}"] = case(None, call, {"x": torch.randn(2, 2, 3, 4)}, {"num_repeats": n_rep}, ["x"], seed)


# ---------------------------------------------------------------- attention layers


def randomise_attention(module):
    with torch.no_grad():
        for name, p in module.named_parameters():
            if name.endswith("bias"):
                p.copy_(0.1 * torch.randn(p.shape))
            elif "norm" in name:
                p.copy_(1 + 0.2 * torch.randn(p.shape))
            else:
                p.copy_(0.4 * torch.randn(p.shape))  # sharper attention than the default init
    return module


def attention_cases(cases):
    left_padded = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]], dtype=torch.int32)
    specs = [
        ("attention llama gqa H4 KV2 D4 bias llama3", 641, "llama",
         LlamaConfig(hidden_size=16, num_attention_heads=4, num_key_value_heads=2, head_dim=4, attention_bias=True, max_position_embeddings=64,
                     rope_parameters={"rope_type": "llama3", "factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 16, "rope_theta": 100.0},
                     attn_implementation="eager")),
        ("attention qwen3 mqa H4 KV1 D8 qk-norm", 642, "qwen3",
         Qwen3Config(hidden_size=12, num_attention_heads=4, num_key_value_heads=1, head_dim=8, rms_norm_eps=1e-6, max_position_embeddings=64,
                     rope_parameters={"rope_type": "default", "rope_theta": 1000.0}, attn_implementation="eager")),
        ("attention qwen3 gqa H4 KV2 D8 qk-norm sliding 3 yarn", 643, "qwen3-sliding",
         Qwen3Config(hidden_size=16, num_attention_heads=4, num_key_value_heads=2, head_dim=8, rms_norm_eps=1e-6, max_position_embeddings=64,
                     use_sliding_window=True, sliding_window=3, max_window_layers=0, layer_types=["sliding_attention"], num_hidden_layers=1,
                     rope_parameters={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16, "rope_theta": 1000.0}, attn_implementation="eager")),
    ]
    for name, seed, kind, config in specs:
        torch.manual_seed(seed)
        layer = randomise_attention((LlamaAttention if kind == "llama" else Qwen3Attention)(config, layer_idx=0)).eval()
        rotary = (LlamaRotaryEmbedding if kind == "llama" else Qwen3RotaryEmbedding)(config)
        sliding = kind == "qwen3-sliding"
        assert getattr(layer, "sliding_window", None) == (3 if sliding else None), name
        position_ids = (left_padded.long().cumsum(-1) - 1).masked_fill(left_padded == 0, 0)  # as generate() makes them

        def call(m, xs, rotary=rotary, sliding=sliding):
            hidden = xs["hidden_states"]
            cos, sin = rotary(hidden, xs["position_ids"].long())
            make_mask = create_sliding_window_causal_mask if sliding else create_causal_mask
            # the mask a float32 model gets (finfo(float32).min): finfo(float64).min plus a negative score overflows to -inf,
            # and a padded query row of only -inf is NaN in eager attention, which would spread into every gradient
            mask = make_mask(config, hidden.float(), xs["attention_mask"], None, position_ids=xs["position_ids"].long())
            output, weights = m(hidden, (cos, sin), mask)
            return {"output": output, "attn_weights": weights}

        tensors = {"hidden_states": torch.randn(2, 6, config.hidden_size), "attention_mask": left_padded, "position_ids": position_ids.int()}
        real = left_padded.bool()  # [B, T]: the query rows that are tokens
        flags = {"config": {k: v for k, v in config.to_dict().items() if k in CONFIG_KEYS}}
        cotangent_mask = {"output": real[:, :, None].double(), "attn_weights": real[:, None, :, None].double()}
        cases[name] = case(layer, call, tensors, flags, ["hidden_states"], seed, cotangent_mask)


CONFIG_KEYS = {"hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim", "attention_bias", "rms_norm_eps", "max_position_embeddings",
               "rope_parameters", "sliding_window", "layer_types", "model_type"}


# ---------------------------------------------------------------- masks


def mask_cases(cases):
    llama = LlamaConfig(hidden_size=8, num_attention_heads=2, attn_implementation="sdpa")
    mistral = MistralConfig(hidden_size=8, num_attention_heads=2, sliding_window=3, attn_implementation="sdpa")
    specs = [
        # name, config, attention_mask [B, past + T], past length, query length
        ("mask causal left padding T5", llama, [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]], 0, 5),
        ("mask causal left padding past 3 T2", llama, [[0, 0, 1, 1, 1], [0, 1, 1, 1, 1]], 3, 2),
        ("mask causal past 4 T1 one row all padding so far", llama, [[1, 1, 1, 1, 1], [0, 0, 0, 0, 1]], 4, 1),
        ("mask sliding 3 left padding T6", mistral, [[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]], 0, 6),
        ("mask sliding 3 left padding past 4 T2", mistral, [[0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]], 4, 2),
        ("mask sliding 3 no padding T5", mistral, None, 0, 5),
    ]
    for name, config, attention_mask, past, q_length in specs:
        batch = 2
        embeds = torch.zeros(batch, q_length, 8)
        cache = None
        if past > 0:
            cache = DynamicCache()  # full layers: every past key is kept (attnkit's cache keeps them too)
            cache.update(torch.zeros(batch, 2, past, 4), torch.zeros(batch, 2, past, 4), 0)
        given = None if attention_mask is None else torch.tensor(attention_mask, dtype=torch.int64)
        sliding = getattr(config, "sliding_window", None) is not None
        make = create_sliding_window_causal_mask if sliding else create_causal_mask
        mask = make(config, embeds, given, cache, allow_is_causal_skip=False)
        assert mask.dtype == torch.bool and mask.shape == (batch, 1, q_length, past + q_length), (name, mask.shape)
        inputs = {"query_length": q_length, "key_length": past + q_length, "sliding_window": config.sliding_window if sliding else None, "batch": batch}
        if given is not None:
            inputs["attention_mask"] = t(given.int())
        cases[name] = {"inputs": inputs, "weights": {}, "outputs": {"mask": t(mask)}}


def write(cases):
    payload = {"generator": GENERATOR, "torch": torch.__version__, "transformers": transformers.__version__, "cases": cases}
    path = OUT / "decoder-blocks.json"
    path.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    counts = {}
    for name in cases:
        counts[name.split(" ")[0]] = counts.get(name.split(" ")[0], 0) + 1
    print(f"decoder-blocks.json: {len(cases)} cases {counts}, {path.stat().st_size / 1e6:.3f} MB")


if __name__ == "__main__":
    torch.set_num_threads(1)
    cases = {}
    rms_norm_cases(cases)
    gated_mlp_cases(cases)
    rope_cases(cases)
    apply_rotary_cases(cases)
    repeat_kv_cases(cases)
    attention_cases(cases)
    mask_cases(cases)
    write(cases)
