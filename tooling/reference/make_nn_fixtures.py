"""Writes the nn-layer, transformer-encoder, attention-bias and BERT-gradient fixtures.

Run from the repository root with the reference virtual environment (torch, transformers, safetensors):

    .venv-ref/bin/python tooling/reference/make_nn_fixtures.py

It writes, under tooling/reference/fixtures/: nn-layers.json, transformer-encoder.json,
attention-bias.json, bert-grad.json and the model folders bert-grad/, bert-grad-b/, bert-legacy/.
No network is used: every model is built from a config with a fixed seed.

Precision: weights and float inputs are made in float32 (so they are exact in the TypeScript float32
implementation), while every forward pass and gradient is computed in float64 and stored at full
precision. Gradients come from loss = sum(output * cotangent), the cotangent being a stored float32 input.
The script also prints sanity numbers (float32 vs float64 forward, SDPA vs torch's, legacy checkpoint load).
"""
import copy
import json
import math
import shutil
import warnings
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
import transformers
from safetensors.torch import load_file, save_file
from transformers import BertConfig, BertForPreTraining, BertModel
from transformers.activations import ACT2FN

OUT = Path(__file__).resolve().parent / "fixtures"
GENERATOR = "tooling/reference/make_nn_fixtures.py"
warnings.filterwarnings("ignore", message=".*mismatched key_padding_mask and attn_mask.*")


# ---------------------------------------------------------------- serialisation


def t(x):
    """A tensor as the TS reader expects it; float tensors keep their full (float64) values."""
    x = x.detach().cpu()
    if x.dtype == torch.bool:
        return {"shape": list(x.shape), "dtype": "bool", "data": [int(v) for v in x.flatten().tolist()]}
    if not x.is_floating_point():
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.double().flatten().tolist()]}


def number(v):
    if math.isfinite(v):
        return float(v)
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def write(name, cases):
    payload = {"generator": GENERATOR, "torch": torch.__version__, "transformers": transformers.__version__, "cases": cases}
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    print(f"{name}.json: {len(cases)} cases, {path.stat().st_size / 1e6:.3f} MB")


# ---------------------------------------------------------------- evaluation


def evaluate(module, call, tensors, grad_inputs=(), cotangent_seed=0, grads=True):
    """Runs call(module, tensors) -> {name: output} in float64 (and float32 for the sanity check).

    Returns (outputs, cotangents, max |float32 - float64| over the outputs). Float tensors are
    float32 on entry; the float64 copies of those named in grad_inputs take a gradient.
    """
    def prepare(dtype):
        m = copy.deepcopy(module).to(dtype) if module is not None else None
        xs = {k: (v.detach().to(dtype, copy=True).requires_grad_(k in grad_inputs) if v.is_floating_point() else v) for k, v in tensors.items()}
        return m, xs

    m64, x64 = prepare(torch.float64)
    outs = call(m64, x64)
    outputs = {n: t(o) for n, o in outs.items()}
    cotangents = {}
    if grads:
        g = torch.Generator().manual_seed(cotangent_seed)
        cotangents = {n: torch.randn(outs[n].shape, generator=g) for n in (["output"] if "output" in outs else outs)}
        loss = sum((outs[n] * c.double()).sum() for n, c in cotangents.items())
        loss.backward()
        for k, p in (m64.named_parameters() if m64 is not None else []):
            outputs[f"grad.{k}"] = t(p.grad if p.grad is not None else torch.zeros_like(p))
        for k in grad_inputs:
            outputs[f"grad.{k}"] = t(x64[k].grad)
    m32, x32 = prepare(torch.float32)
    outs32 = call(m32, x32)  # grad enabled here too, as in the float64 pass
    diff = max((outs32[n].double() - outs[n]).abs().max().item() for n in outs)
    return outputs, cotangents, diff


def case(module, call, tensors, flags, grad_inputs=(), seed=0, grads=True, report=None):
    outputs, cotangents, diff = evaluate(module, call, tensors, grad_inputs, seed + 1000, grads)
    inputs = {k: t(v) for k, v in tensors.items()}
    if len(cotangents) == 1:
        inputs["cotangent"] = t(next(iter(cotangents.values())))
    else:
        inputs.update({f"cotangent.{n}": t(c) for n, c in cotangents.items()})
    inputs.update(flags)
    weights = {k: t(p) for k, p in module.named_parameters()} if module is not None else {}
    if report is not None:
        print(f"  {report}: max |f32 - f64| forward = {diff:.3e}")
    return {"inputs": inputs, "weights": weights, "outputs": outputs}


def randomise(module, generator=None):
    """Biases ~ 0.1 randn and LayerNorm weights ~ 1 + 0.1 randn, so zero/one-init bugs show."""
    with torch.no_grad():
        for sub in module.modules():
            if isinstance(sub, nn.LayerNorm):
                if sub.weight is not None:
                    sub.weight.copy_(1 + 0.1 * torch.randn(sub.weight.shape))
                    sub.bias.copy_(0.1 * torch.randn(sub.bias.shape))
            else:
                for name, p in sub.named_parameters(recurse=False):
                    if "bias" in name:
                        p.copy_(0.1 * torch.randn(p.shape))
    return module


# ---------------------------------------------------------------- nn-layers.json


class FeedForward(nn.Module):
    def __init__(self, activation):
        super().__init__()
        self.linear1, self.linear2 = nn.Linear(8, 16), nn.Linear(16, 8)
        self.act = F.relu if activation == "relu" else F.gelu

    def forward(self, x):
        return self.linear2(self.act(self.linear1(x)))


def nn_layers():
    print("nn-layers")
    cases = {}
    x_call = lambda m, xs: {"output": m(xs["x"])}

    torch.manual_seed(101)
    m = randomise(nn.Linear(5, 7))
    cases["linear bias [2,3,5]->7"] = case(m, x_call, {"x": torch.randn(2, 3, 5)}, {}, ["x"], 101, report="linear bias")
    torch.manual_seed(102)
    m = nn.Linear(5, 3, bias=False)
    cases["linear no bias [4,5]->3"] = case(m, x_call, {"x": torch.randn(4, 5)}, {}, ["x"], 102, report="linear no bias")

    ids = torch.tensor([[1, 3, 3, 10], [0, 1, 7, 3]], dtype=torch.int32)
    id_call = lambda m, xs: {"output": m(xs["ids"].long())}
    torch.manual_seed(103)
    cases["embedding 11x6"] = case(nn.Embedding(11, 6), id_call, {"ids": ids}, {}, (), 103)
    torch.manual_seed(104)
    m = nn.Embedding(11, 6, padding_idx=0)
    cases["embedding padding_idx 0"] = case(m, id_call, {"ids": ids}, {"padding_idx": 0}, (), 104)

    for seed, eps, name in [(105, 1e-5, "layer_norm 8 eps 1e-5"), (106, 1e-12, "layer_norm 8 eps 1e-12")]:
        torch.manual_seed(seed)
        m = randomise(nn.LayerNorm(8, eps=eps))
        x = torch.randn(2, 3, 8) * 3 + torch.tensor([[[2.0]], [[-1.5]]])
        cases[name] = case(m, x_call, {"x": x}, {"eps": eps}, ["x"], seed, report=name)
    torch.manual_seed(107)
    m = nn.LayerNorm(8, eps=1e-5, elementwise_affine=False)
    x = torch.randn(2, 3, 8) * 3 + 1.25
    cases["layer_norm no affine"] = case(m, x_call, {"x": x}, {"eps": 1e-5}, ["x"], 107, report="layer_norm no affine")

    names = ["gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_fast", "quick_gelu", "gelu_python", "gelu_accurate",
             "relu", "relu6", "silu", "swish", "mish", "tanh", "sigmoid", "leaky_relu", "linear", "laplace", "relu2", "gelu_10"]
    x = torch.linspace(-6, 6, 61)
    skipped = [n for n in names if n not in ACT2FN]
    for i, name in enumerate(n for n in names if n in ACT2FN):
        act = ACT2FN[name]
        call = lambda m, xs, act=act: {"output": act(xs["x"])}
        cases[f"activation {name}"] = case(None, call, {"x": x}, {"name": name}, ["x"], 200 + i, report=f"activation {name}")
    print(f"  activations skipped (not in ACT2FN): {skipped or 'none'}; x has exact 0: {bool((x == 0).any())}")

    for seed, act in [(108, "relu"), (109, "gelu")]:
        torch.manual_seed(seed)
        m = randomise(FeedForward(act))
        cases[f"feed_forward {act} 8->16->8"] = case(m, x_call, {"x": torch.randn(2, 3, 8)}, {"activation": act}, ["x"], seed, report=f"feed_forward {act}")
    write("nn-layers", cases)


# ---------------------------------------------------------------- transformer-encoder.json

B, T, E = 2, 5, 16


def bool_padding(padded_last):
    """[B, T], True = padding: sequence b has its last padded_last[b] positions padded."""
    return torch.stack([torch.arange(T) >= T - n for n in padded_last])


def causal_bool():
    return torch.ones(T, T).triu(1).bool()  # True = blocked


def encoder_call(m, xs):
    mask_arg = "src_mask" if isinstance(m, nn.TransformerEncoderLayer) else "mask"  # the layer and the stack differ
    kwargs = {(mask_arg if k == "mask" else k): xs[k] for k in ("mask", "src_key_padding_mask") if k in xs}
    return {"output": m(xs["src"], **kwargs)}


def transformer_encoder():
    print("transformer-encoder")
    specs = [
        # name, norm_first, activation, batch_first, masks builder
        ("layer post-LN relu", False, "relu", True, lambda: {}),
        ("layer pre-LN gelu padding", True, "gelu", True, lambda: {"src_key_padding_mask": bool_padding([0, 2])}),
        ("layer post-LN gelu causal+padding", False, "gelu", True,
         lambda: {"mask": causal_bool(), "src_key_padding_mask": bool_padding([0, 1])}),
        ("layer pre-LN relu float mask", True, "relu", True, lambda: {"mask": torch.randn(T, T) * 0.77}),
        ("layer post-LN relu seq-first padding", False, "relu", False, lambda: {"src_key_padding_mask": bool_padding([1, 2])}),
        ("layer pre-LN gelu float padding", True, "gelu", True,
         lambda: {"src_key_padding_mask": torch.tensor([[0, -2.5, 0, 0, 0], [0, 0, 0, -2.5, -2.5]])}),
    ]
    cases = {}
    for i, (name, norm_first, act, batch_first, masks) in enumerate(specs):
        seed = 300 + i
        torch.manual_seed(seed)
        layer = randomise(make_layer(norm_first, act, batch_first))
        src = torch.randn(B, T, E) if batch_first else torch.randn(T, B, E)
        flags = {"norm_first": norm_first, "activation": act, "batch_first": batch_first, "layer_norm_eps": 1e-5,
                 "d_model": E, "nhead": 4, "dim_feedforward": 32}
        cases[name] = case(layer, encoder_call, {"src": src, **masks()}, flags, ["src"], seed, report=name)

    encoders = [
        ("encoder 2 pre-LN gelu final norm padding", 2, True, "gelu", True, lambda: {"src_key_padding_mask": bool_padding([1, 2])}),
        ("encoder 3 post-LN relu causal+padding no final norm", 3, False, "relu", False,
         lambda: {"mask": causal_bool(), "src_key_padding_mask": bool_padding([2, 0])}),
    ]
    for i, (name, num_layers, norm_first, act, final_norm, masks) in enumerate(encoders):
        seed = 320 + i
        torch.manual_seed(seed)
        norm = nn.LayerNorm(E, eps=1e-5) if final_norm else None
        encoder = nn.TransformerEncoder(make_layer(norm_first, act, True), num_layers, norm=norm, enable_nested_tensor=False)
        for sub in encoder.modules():  # the layers are deep copies: re-draw each one's parameters
            if sub is not encoder and hasattr(sub, "reset_parameters"):
                sub.reset_parameters()
            if isinstance(sub, nn.MultiheadAttention):
                sub._reset_parameters()
        randomise(encoder)
        flags = {"norm_first": norm_first, "activation": act, "batch_first": True, "layer_norm_eps": 1e-5,
                 "d_model": E, "nhead": 4, "dim_feedforward": 32, "num_layers": num_layers, "final_norm": final_norm}
        cases[name] = case(encoder, encoder_call, {"src": torch.randn(B, T, E), **masks()}, flags, ["src"], seed, report=name)
        w = encoder.layers[0].linear1.weight, encoder.layers[1].linear1.weight
        assert not torch.equal(*w), "encoder layers must differ"
    write("transformer-encoder", cases)


def make_layer(norm_first, act, batch_first):
    return nn.TransformerEncoderLayer(d_model=E, nhead=4, dim_feedforward=32, dropout=0.0, activation=act,
                                      layer_norm_eps=1e-5, batch_first=batch_first, norm_first=norm_first)


# ---------------------------------------------------------------- attention-bias.json


def mha_call(m, xs):
    out, weights = m(xs["query"], xs["key"], xs["value"], attn_mask=xs.get("attn_mask"),
                     key_padding_mask=xs.get("key_padding_mask"), need_weights=True, average_attn_weights=True)
    return {"output": out, "attn_weights": weights}


def sdpa_reference(q, k, v, bias, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + bias
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    probs = scores.softmax(-1)
    return probs @ v, probs


def attention_bias():
    print("attention-bias")
    cases = {}
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    blocked = torch.tensor([[0, 0, 1, 0, 1, 1], [1, 0, 0, 0, 0, 1], [0, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 1]], dtype=torch.bool)
    specs = [
        ("mha float attn_mask [T,S]", lambda: {"attn_mask": torch.randn(4, 6) * 0.77}),
        ("mha float attn_mask [B*H,T,S] + bool key_padding_mask", lambda: {"attn_mask": torch.randn(6, 4, 6) * 0.77, "key_padding_mask": pad}),
        ("mha bool attn_mask + float key_padding_mask", lambda: {"attn_mask": blocked, "key_padding_mask": torch.where(pad, -1.5, 0.0)}),
    ]
    for i, (name, masks) in enumerate(specs):
        seed = 400 + i
        torch.manual_seed(seed)
        m = randomise(nn.MultiheadAttention(embed_dim=12, num_heads=3, batch_first=True))
        tensors = {"query": torch.randn(2, 4, 12), "key": torch.randn(2, 6, 12), "value": torch.randn(2, 6, 12), **masks()}
        flags = {"embed_dim": 12, "num_heads": 3}
        cases[name] = case(m, mha_call, tensors, flags, ["query", "key", "value"], seed, report=name)

    def sdpa_call(_, xs):
        out, probs = sdpa_reference(xs["query"], xs["key"], xs["value"], xs["bias"], xs.get("mask"))
        return {"output": out, "weights": probs}

    torch.manual_seed(410)
    q, k, v = torch.randn(2, 3, 4, 8), torch.randn(2, 3, 5, 8), torch.randn(2, 3, 5, 8)
    bias = torch.randn(2, 3, 4, 5) * 0.77
    mask = torch.tensor([[True] * 5, [True] * 3 + [False] * 2]).view(2, 1, 1, 5)  # True = may attend
    tensors = {"query": q, "key": k, "value": v, "bias": bias, "mask": mask}
    cases["sdpa bias+mask"] = case(None, sdpa_call, tensors, {}, ["query", "key", "value", "bias"], 410, report="sdpa bias+mask")
    check_sdpa("sdpa bias+mask", tensors)

    torch.manual_seed(411)
    heads = 3
    slopes = torch.tensor([2.0 ** (-8 * (h + 1) / heads) for h in range(heads)], dtype=torch.float64)
    distance = (torch.arange(4)[:, None] - torch.arange(5)[None, :]).abs().double()
    alibi = (-slopes[:, None, None] * distance)[None].float()  # [1, H, T, S], float32-exact
    tensors = {"query": torch.randn(2, 3, 4, 8), "key": torch.randn(2, 3, 5, 8), "value": torch.randn(2, 3, 5, 8), "bias": alibi}
    cases["sdpa alibi"] = case(None, sdpa_call, tensors, {}, (), 411, grads=False, report="sdpa alibi")
    check_sdpa("sdpa alibi", tensors)
    write("attention-bias", cases)


def check_sdpa(name, xs):
    x = {k: v.double() if v.is_floating_point() else v for k, v in xs.items()}
    attn_mask = x["bias"] if "mask" not in x else x["bias"].masked_fill(~x["mask"], float("-inf"))
    ours, _ = sdpa_reference(x["query"], x["key"], x["value"], x["bias"], x.get("mask"))
    theirs = F.scaled_dot_product_attention(x["query"], x["key"], x["value"], attn_mask=attn_mask)
    print(f"  {name}: max |reference - F.scaled_dot_product_attention| (float64) = {(ours - theirs).abs().max().item():.3e}")


# ---------------------------------------------------------------- bert-grad.json and model folders


def bert_config(vocab, hidden, layers, heads, intermediate, positions, types, act):
    return BertConfig(vocab_size=vocab, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
                      intermediate_size=intermediate, max_position_embeddings=positions, type_vocab_size=types,
                      hidden_act=act, layer_norm_eps=1e-12, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                      attn_implementation="eager")


def init_bert(model):
    with torch.no_grad():
        for sub in model.modules():
            if isinstance(sub, (nn.Linear, nn.Embedding)):
                sub.weight.normal_(0.0, 0.2)
            if isinstance(sub, nn.Linear) and sub.bias is not None:
                sub.bias.normal_(0.0, 0.1)
            if isinstance(sub, nn.LayerNorm):
                sub.weight.copy_(1 + 0.1 * torch.randn(sub.weight.shape))
                sub.bias.copy_(0.1 * torch.randn(sub.bias.shape))
        for name, p in model.named_parameters():
            if name == "cls.predictions.bias":
                p.normal_(0.0, 0.1)
    return model


def save_model(model, folder):
    if folder.exists():
        shutil.rmtree(folder)
    model.save_pretrained(folder)
    for path in folder.iterdir():
        if path.name not in ("config.json", "model.safetensors"):
            path.unlink()
    saved = load_file(folder / "model.safetensors")
    expected = {k: v for k, v in model.state_dict().items()}
    assert set(saved) == set(expected), f"save_pretrained keys differ: {set(saved) ^ set(expected)}"
    assert all(saved[k].dtype == torch.float32 and torch.equal(saved[k], expected[k]) for k in saved)


def bert_call(m, xs):
    out = m(input_ids=xs["input_ids"].long(), attention_mask=xs["attention_mask"].long(), token_type_ids=xs["token_type_ids"].long())
    return {"last_hidden_state": out.last_hidden_state, "pooler_output": out.pooler_output}


def bert_grad():
    print("bert-grad")
    specs = [
        ("bert-grad", 500, bert_config(50, 16, 2, 4, 32, 12, 2, "gelu"), 7, [0, 2], [[0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 1, 0, 0]]),
        ("bert-grad-b", 501, bert_config(40, 12, 3, 3, 24, 10, 3, "gelu_new"), 6, [2, 0], [[0, 1, 1, 2, 0, 0], [0, 0, 1, 1, 2, 2]]),
    ]
    cases, models = {}, {}
    for name, seed, config, length, padded, types in specs:
        torch.manual_seed(seed)
        model = init_bert(BertModel(config, add_pooling_layer=True)).eval()
        save_model(model, OUT / name)
        vocab = config.vocab_size
        ids = torch.randint(1, vocab, (2, length), dtype=torch.int32)
        keep = torch.stack([torch.arange(length) < length - n for n in padded])
        tensors = {"input_ids": ids.masked_fill(~keep, 0), "attention_mask": keep.int(), "token_type_ids": torch.tensor(types, dtype=torch.int32)}
        c = case(model, bert_call, tensors, {"model": name}, (), seed, report=name)
        c["weights"] = {}  # the weights are the safetensors file in the folder named by inputs.model
        cases[name] = c
        models[name] = (model, tensors)
    write("bert-grad", cases)
    bert_legacy(*models["bert-grad"])


def bert_legacy(model, tensors):
    """bert-grad's weights under old-checkpoint names: bert. prefix, LayerNorm.gamma/beta, plus cls.* heads."""
    print("bert-legacy")
    folder = OUT / "bert-legacy"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    legacy = lambda k: k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta")
    out = {legacy(f"bert.{k}"): v.detach().clone().contiguous() for k, v in model.state_dict().items()}
    torch.manual_seed(502)
    pretraining = init_bert(BertForPreTraining(model.config))
    heads = pretraining.state_dict()
    dropped = [k for k in heads if k.startswith("cls.predictions.decoder.")]  # tied to word embeddings / cls.predictions.bias
    out.update({legacy(k): v.detach().clone().contiguous() for k, v in heads.items() if k.startswith("cls.") and k not in dropped})
    save_file(out, folder / "model.safetensors", metadata={"format": "pt"})
    shutil.copy(OUT / "bert-grad" / "config.json", folder / "config.json")
    print(f"  wrote {len(out)} tensors ({sum(k.startswith('cls.') for k in out)} cls.*), left out tied {dropped}")

    reference = BertModel.from_pretrained(OUT / "bert-grad", attn_implementation="eager").eval()
    loaded, info = BertModel.from_pretrained(folder, attn_implementation="eager", output_loading_info=True)
    loaded.eval()
    print(f"  from_pretrained(bert-legacy): missing={info['missing_keys']} unexpected={sorted(info['unexpected_keys'])}")
    same = all(torch.equal(a, b) for a, b in zip(reference.state_dict().values(), loaded.state_dict().values()))
    with torch.no_grad():
        a = bert_call(reference, tensors)["last_hidden_state"]
        b = bert_call(loaded, tensors)["last_hidden_state"]
    diff = (a - b).abs().max().item()
    print(f"  legacy vs bert-grad: state_dicts equal={same}, max |last_hidden_state diff| = {diff:.3e}")
    if diff > 1e-6 or not same:
        print("  !! transformers did NOT map the legacy gamma/beta / bert. names onto BertModel's parameters")


def check_files():
    for name in ("nn-layers", "transformer-encoder", "attention-bias", "bert-grad"):
        data = json.loads((OUT / f"{name}.json").read_text())
        assert set(data) == {"generator", "torch", "transformers", "cases"}
        for case_name, c in data["cases"].items():
            assert set(c) == {"inputs", "weights", "outputs"}, case_name
            for w in c["weights"]:
                assert f"grad.{w}" in c["outputs"], (case_name, w)
        print(f"{name}.json: {len(data['cases'])} cases load: {list(data['cases'])}")
    for folder in ("bert-grad", "bert-grad-b", "bert-legacy"):
        print(f"{folder}/: {sorted(p.name for p in (OUT / folder).iterdir())}")


if __name__ == "__main__":
    torch.set_num_threads(1)
    OUT.mkdir(exist_ok=True)
    nn_layers()
    transformer_encoder()
    attention_bias()
    bert_grad()
    check_files()
