#!/usr/bin/python3
"""Writes the PyTorch reference fixtures attnkit's tests compare against.

Run with Debian's python3-torch:  /usr/bin/python3 tooling/reference/make_fixtures.py
Every case uses a fixed seed; tensors are stored as {"shape": [...], "dtype": ..., "data": [...]}
(float32 values printed exactly, ±inf and NaN as strings, booleans as 0/1). CI never runs this: the JSON is committed.
"""
import json
import math
import sys
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

import bert_reference as bert
import wordpiece_reference

OUT = Path(__file__).resolve().parent / "fixtures"


def t_(x):
    return t(x)


def t(x):
    x = x.detach()
    if x.dtype == torch.bool:
        return {"shape": list(x.shape), "dtype": "bool", "data": [int(v) for v in x.flatten().tolist()]}
    if x.dtype in (torch.int32, torch.int64):
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.float().flatten().tolist()]}


def number(v):
    """JSON has no infinities or NaN: those are written as the strings "Infinity", "-Infinity", "NaN"."""
    if math.isfinite(v):
        return float(v)
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def write(name, cases):
    payload = {"generator": "tooling/reference/make_fixtures.py", "torch": torch.__version__, "cases": cases}
    (OUT / f"{name}.json").write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    print(f"{name}.json: {len(cases)} cases")


def safe_softmax(scores, keep):
    """PyTorch's masked softmax with -inf fill; rows with no allowed key (NaN) become zeros,
    as torch's _safe_softmax (torch >= 2.5) returns them."""
    probabilities = F.softmax(scores.masked_fill(~keep, float("-inf")), dim=-1)
    return torch.nan_to_num(probabilities, nan=0.0)


def padding(lengths, key_length):
    return torch.arange(key_length)[None, :] < torch.tensor(lengths)[:, None]  # [B, S] (seed 003)


def masks():
    cases = {}
    for name, lengths, s in [("padding lengths [4,2,0,3] S=4", [4, 2, 0, 3], 4), ("padding lengths [1,5] S=5", [1, 5], 5)]:
        cases[name] = {"inputs": {"lengths": lengths, "keyLength": s}, "outputs": {"mask": t(padding(lengths, s)[:, None, None, :])}}
    ids = torch.tensor([[1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 0]])
    cases["padding from ids [3,4]"] = {"inputs": {"attentionMask": t(ids)}, "outputs": {"mask": t((ids == 1)[:, None, None, :])}}
    for q, k, offset in [(4, 4, None), (3, 5, None), (5, 3, None), (3, 5, 0), (4, 4, -1), (2, 6, 1)]:
        diagonal = k - q if offset is None else offset
        mask = torch.ones(q, k, dtype=torch.bool).tril(diagonal=diagonal)
        name = f"causal T={q} S={k} offset={'default' if offset is None else offset}"
        cases[name] = {"inputs": {"queryLength": q, "keyLength": k, "offset": offset}, "outputs": {"mask": t(mask[None, None])}}
    pad = padding([3, 1], 3)[:, None, None, :]
    causal = torch.ones(3, 3, dtype=torch.bool).tril()[None, None]
    cases["merge padding [2,1,1,3] & causal [1,1,3,3]"] = {
        "inputs": {"padding": t(pad), "causal": t(causal)},
        "outputs": {"mask": t(pad & causal)},
    }
    write("masks", cases)


def masked_softmax():
    torch.manual_seed(3)
    cases = {}
    scores = torch.randn(2, 2, 3, 4) * 4
    keep = padding([3, 0], 4)[:, None, None, :]  # second sequence: every key is padding
    cases["padding, one sequence fully padded"] = {"inputs": {"scores": t(scores), "mask": t(keep)}, "outputs": {"probabilities": t(safe_softmax(scores, keep))}}
    scores = torch.randn(1, 3, 4, 6) * 4
    keep = torch.ones(4, 6, dtype=torch.bool).tril(diagonal=-1)[None, None]  # row 0 fully masked
    cases["causal offset -1, first row fully masked"] = {"inputs": {"scores": t(scores), "mask": t(keep)}, "outputs": {"probabilities": t(safe_softmax(scores, keep))}}
    scores = torch.randn(2, 5, 7) * 10
    cases["no mask"] = {"inputs": {"scores": t(scores)}, "outputs": {"probabilities": t(F.softmax(scores, dim=-1))}}
    write("masked-softmax", cases)


def linear(in_features, out_features, bias):
    layer = nn.Linear(in_features, out_features, bias=bias)
    with torch.no_grad():
        layer.weight.mul_(3.0)  # sharper than the default init, so scale and mask bugs show
        if bias:
            layer.bias.uniform_(-1.0, 1.0)
    return layer


def scorers():
    cases = {}
    torch.manual_seed(11)
    for b, h, q_len, k_len, d in [(2, 3, 4, 6, 5), (1, 2, 5, 5, 8)]:
        q, k = torch.randn(b, h, q_len, d), torch.randn(b, h, k_len, d)
        suffix = f"[{b},{h},{q_len},{d}]x[{b},{h},{k_len},{d}]"
        cases[f"dot {suffix}"] = {"inputs": {"query": t(q), "key": t(k)}, "outputs": {"scores": t(q @ k.transpose(-2, -1))}}
        # nn.MultiheadAttention / F.multi_head_attention_forward scale the query before the product.
        scaled = (q * math.sqrt(1.0 / d)) @ k.transpose(-2, -1)
        cases[f"scaled dot {suffix}"] = {"inputs": {"query": t(q), "key": t(k)}, "outputs": {"scores": t(scaled)}}

    torch.manual_seed(12)
    q, k = torch.randn(2, 4, 8), torch.randn(2, 6, 5)
    for bias in (False, True):
        w_q, w_k, w = linear(8, 7, False), linear(5, 7, bias), linear(7, 1, False)
        scores = w(torch.tanh(w_q(q)[:, :, None, :] + w_k(k)[:, None, :, :])).squeeze(-1)  # [B, T, S]
        weights = {"W_q.weight": t(w_q.weight), "W_k.weight": t(w_k.weight), "w.weight": t(w.weight)}
        if bias:
            weights["W_k.bias"] = t(w_k.bias)
        cases[f"additive {'with' if bias else 'no'} bias q[2,4,8] k[2,6,5] A=7"] = {
            "inputs": {"query": t(q), "key": t(k)}, "weights": weights, "outputs": {"scores": t(scores)}}

    torch.manual_seed(13)
    weight = torch.randn(8, 5)
    cases["bilinear q[2,4,8] W[8,5] k[2,6,5]"] = {
        "inputs": {"query": t(q), "key": t(k)}, "weights": {"weight": t(weight)},
        "outputs": {"scores": t(q @ weight @ k.transpose(-2, -1))}}

    torch.manual_seed(14)
    x = torch.randn(3, 4, 6)
    w_q, w_k = linear(6, 6, False), linear(6, 6, False)
    cases["self-attention X[3,4,6]"] = {
        "inputs": {"x": t(x)}, "weights": {"W_q.weight": t(w_q.weight), "W_k.weight": t(w_k.weight)},
        "outputs": {"scores": t(w_q(x) @ w_k(x).transpose(1, 2))}}

    torch.manual_seed(15)
    q, k = torch.randn(4, 2, 3, 5), torch.randn(6, 2, 3, 5)  # seed 001: [T, B, H, D] x [S, B, H, D]
    cases["seq-first q[4,2,3,5] k[6,2,3,5]"] = {
        "inputs": {"query": t(q), "key": t(k)}, "outputs": {"scores": t(torch.einsum("ibhd,jbhd->ijbh", q, k))}}
    write("scorers", cases)


def pooling():
    cases = {}
    torch.manual_seed(21)
    x = torch.randn(3, 4, 6)
    keep = padding([4, 2, 0], 4)  # third sequence empty: its pooled vector must be zeros
    # seed 003's AdditiveScore with its learned query q [1, D]: w(tanh(W_k(X) + W_q(q)))
    w_q, w_k, w = linear(6, 6, False), linear(6, 6, False), linear(6, 1, False)
    query = torch.randn(1, 6)
    scores = w(torch.tanh(w_k(x) + w_q(query))).squeeze(-1)  # [B, S]
    weights = safe_softmax(scores, keep)
    cases["additive pooling X[3,4,6] lengths [4,2,0]"] = {
        "inputs": {"values": t(x), "mask": t(keep[:, None, None, :]), "query": t(query)},
        "weights": {"W_q.weight": t(w_q.weight), "W_k.weight": t(w_k.weight), "w.weight": t(w.weight)},
        "outputs": {"output": t(torch.einsum("bs,bse->be", weights, x)), "attentionWeights": t(weights)}}
    # seed 003's DotProductScore with its learned query q [D, 1]: X q
    query = torch.randn(6, 1)
    scores = (x @ query).squeeze(-1)
    weights = safe_softmax(scores, keep)
    cases["dot pooling X[3,4,6] lengths [4,2,0]"] = {
        "inputs": {"values": t(x), "mask": t(keep[:, None, None, :]), "query": t(query.T)},
        "outputs": {"output": t(torch.einsum("bs,bse->be", weights, x)), "attentionWeights": t(weights)}}
    write("pooling", cases)


def mha_weights(mha):
    """State dict of an nn.MultiheadAttention, with every bias made non-zero (bias bugs must show)."""
    with torch.no_grad():
        for name, parameter in mha.named_parameters():
            if name.endswith("bias"):
                parameter.uniform_(-0.5, 0.5)
            else:
                parameter.mul_(2.0)  # sharper attention than the default init
    return {name: t(value) for name, value in mha.state_dict().items()}


def attention():
    cases = {}

    def case(name, seed, e, h, b, q_len, s_len, kdim=None, vdim=None, distinct_kv=True, self_attention=False,
             key_padding=None, attn_mask=None, need_weights=True, average=True, dropout=0.0):
        torch.manual_seed(seed)
        mha = nn.MultiheadAttention(e, h, bias=True, kdim=kdim, vdim=vdim, batch_first=True, dropout=dropout)
        weights = mha_weights(mha)
        query = torch.randn(b, q_len, e)
        if self_attention:
            key = value = query
        else:
            key = torch.randn(b, s_len, kdim or e)
            value = torch.randn(b, s_len, vdim or e) if distinct_kv else key
        inputs = {"query": t(query), "key": t(key), "value": t(value),
                  "needWeights": need_weights, "averageAttnWeights": average, "numHeads": h}
        kwargs = {}
        if key_padding is not None:
            kwargs["key_padding_mask"] = ~padding(key_padding, s_len)  # torch: True = padding
            inputs["keyPaddingMask"] = t(kwargs["key_padding_mask"])
        if attn_mask is not None:
            kwargs["attn_mask"] = attn_mask
            inputs["attnMask"] = t(attn_mask)
        mha.eval()
        output, weights_out = mha(query, key, value, need_weights=need_weights, average_attn_weights=average, **kwargs)
        # Rows with every key blocked are NaN in torch 1.13. With a safe softmax (torch >= 2.5,
        # attnkit) their attention is zero, so the layer returns out_proj(0) = out_proj.bias there.
        safe_output = torch.where(torch.isnan(output), mha.out_proj.bias.detach().expand_as(output), output)
        outputs = {"output": t(safe_output)}
        if weights_out is not None:
            outputs["attentionWeights"] = t(torch.nan_to_num(weights_out, nan=0.0))
        cases[name] = {"inputs": inputs, "weights": weights, "outputs": outputs,
                       "torchHasNaN": bool(torch.isnan(output).any())}

    causal_blocked = torch.ones(6, 6, dtype=torch.bool).triu(diagonal=1)  # torch: True = blocked
    case("self, no mask E16 H4 B2 T6", 1, 16, 4, 2, 6, 6, self_attention=True)
    case("self, padding E16 H4 B2 T6", 2, 16, 4, 2, 6, 6, self_attention=True, key_padding=[6, 3])
    case("self, causal E16 H4 B2 T6", 3, 16, 4, 2, 6, 6, self_attention=True, attn_mask=causal_blocked)
    case("self, padding + causal E16 H4 B2 T6", 4, 16, 4, 2, 6, 6, self_attention=True, key_padding=[6, 4], attn_mask=causal_blocked)
    additive = torch.zeros(6, 6).masked_fill(causal_blocked, float("-inf"))
    case("self, float additive causal mask E16 H4 B2 T6", 5, 16, 4, 2, 6, 6, self_attention=True, attn_mask=additive)
    case("cross E12 H3 B2 T5 S7, distinct key and value", 6, 12, 3, 2, 5, 7, key_padding=[7, 2])
    case("cross E12 H3 B2 T5 S7, key is value", 7, 12, 3, 2, 5, 7, distinct_kv=False)
    case("cross kdim 10 vdim 6, separate projections E12 H3 T5 S7", 8, 12, 3, 2, 5, 7, kdim=10, vdim=6, key_padding=[4, 7])
    case("per-head weights E16 H4 B2 T6", 9, 16, 4, 2, 6, 6, self_attention=True, key_padding=[5, 6], average=False)
    case("need_weights=False E16 H4 B2 T6", 10, 16, 4, 2, 6, 6, self_attention=True, key_padding=[6, 2], need_weights=False)
    case("larger E64 H8 B3 T33", 11, 64, 8, 3, 33, 33, self_attention=True, key_padding=[33, 20, 7])
    case("fully masked rows: empty sequence E16 H4 B2 T6", 12, 16, 4, 2, 6, 6, self_attention=True, key_padding=[6, 0])
    per_head_blocked = torch.zeros(2 * 4, 6, 6, dtype=torch.bool)
    per_head_blocked[1, :, 3:] = True  # batch 0, head 1 may not see keys 3..5
    case("3-D bool attn_mask [B*H, T, S] E16 H4 B2 T6", 13, 16, 4, 2, 6, 6, self_attention=True, attn_mask=per_head_blocked, average=False)
    write("attention", cases)

    # scaled dot-product attention on [B, H, T, D] (seeds 000 and 002), PyTorch's math path
    cases = {}
    torch.manual_seed(31)
    q, k, v = torch.randn(2, 3, 4, 8) * 2, torch.randn(2, 3, 6, 8) * 2, torch.randn(2, 3, 6, 5)
    keep = padding([6, 2], 6)[:, None, None, :]
    scores = (q * 8 ** -0.5) @ k.transpose(-2, -1)
    weights = safe_softmax(scores, keep)
    cases["SDPA padding [2,3,4,8] x [2,3,6,8], Dv 5"] = {
        "inputs": {"query": t(q), "key": t(k), "value": t(v), "mask": t(keep)},
        "outputs": {"output": t(weights @ v), "attentionWeights": t(weights)}}
    keep = torch.ones(4, 6, dtype=torch.bool).tril(diagonal=2)[None, None]
    weights = safe_softmax(scores, keep)
    cases["SDPA causal offset 2 [2,3,4,8] x [2,3,6,8]"] = {
        "inputs": {"query": t(q), "key": t(k), "value": t(v), "mask": t(keep)},
        "outputs": {"output": t(weights @ v), "attentionWeights": t(weights)}}
    write("sdpa", cases)


def bert_cases():
    """Two HF-layout BERT folders (config.json + model.safetensors) and their reference outputs."""
    cases = {}
    specs = [
        # name, seed, config, lengths, prefix "bert." + cls head?, token types
        ("bert-a", 41, bert.config(97, 32, 2, 4, 64, 16, types=2), [16, 9, 4], True),
        ("bert-b", 42, bert.config(53, 24, 3, 3, 40, 12, types=3), [7, 12], False),
    ]
    for name, seed, c, lengths, hf_prefix in specs:
        torch.manual_seed(seed)
        model = bert.BertModel(c)
        bert.init_sharp(model, seed)
        model.eval()
        folder = OUT / name
        folder.mkdir(exist_ok=True)
        (folder / "config.json").write_text(json.dumps(c, indent=2) + "\n")
        tensors = {(f"bert.{k}" if hf_prefix else k): v for k, v in model.state_dict().items()}
        if hf_prefix:  # a pre-training head the encoder must ignore, as BertForPreTraining checkpoints have
            tensors["cls.predictions.bias"] = torch.zeros(c["vocab_size"])
            tensors["cls.predictions.transform.dense.weight"] = torch.zeros(c["hidden_size"], c["hidden_size"])
        bert.save_safetensors(folder / "model.safetensors", tensors)
        generator = torch.Generator().manual_seed(seed + 1)
        t = max(lengths)
        input_ids = torch.randint(1, c["vocab_size"], (len(lengths), t), generator=generator)
        attention_mask = (torch.arange(t)[None, :] < torch.tensor(lengths)[:, None]).long()
        input_ids = input_ids * attention_mask  # padding id 0
        # mixed token types: a second segment in the back half of each sequence
        token_type_ids = ((torch.arange(t)[None, :] >= torch.tensor(lengths)[:, None] // 2) & (attention_mask == 1)).long()
        token_type_ids = torch.clamp(token_type_ids * torch.randint(1, c["type_vocab_size"], (len(lengths), 1), generator=generator), max=c["type_vocab_size"] - 1)
        with torch.no_grad():
            out = model(input_ids, attention_mask, token_type_ids)
        cases[name] = {
            "inputs": {"input_ids": t_(input_ids), "attention_mask": t_(attention_mask), "token_type_ids": t_(token_type_ids)},
            "outputs": {
                "last_hidden_state": t_(out["last_hidden_state"]),
                "pooler_output": t_(out["pooler_output"]),
                "hidden_states_1": t_(out["hidden_states"][1]),
                "attentions_0": t_(out["attentions"][0]),
            },
        }
    write("bert", cases)


def embedded_model(folder):
    """attnkit-tiny-bert: the demo's small untrained encoder with the bert-base-uncased vocabulary,
    weights from a fixed seed, stored as F16; plus reference outputs for two inputs."""
    c = bert.config(30522, 64, 2, 4, 256, 128, types=2)
    torch.manual_seed(2026)
    model = bert.BertModel(c)
    bert.init_sharp(model, 2026)
    with torch.no_grad():  # round to float16 first, so the reference is what a loader of the file sees
        for p in model.parameters():
            p.copy_(p.half().float())
    model.eval()
    folder.mkdir(parents=True, exist_ok=True)
    config = dict(c, _name_or_path="attnkit-tiny-bert", torch_dtype="float16")
    (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    bert.save_safetensors(folder / "model.safetensors", model.state_dict(), dtype="F16", metadata={"format": "pt"})
    cases = {}
    for name, ids, types in [
        ("hello world", [[101, 7592, 2088, 102]], [[0, 0, 0, 0]]),
        ("pair with padding", [[101, 1996, 4937, 102, 2009, 102, 0, 0], [101, 2023, 2003, 1037, 3231, 1012, 102, 0]], [[0, 0, 0, 0, 1, 1, 0, 0], [0] * 8]),
    ]:
        input_ids = torch.tensor(ids)
        attention_mask = (input_ids != 0).long()
        with torch.no_grad():
            out = model(input_ids, attention_mask, torch.tensor(types))
        cases[name] = {"inputs": {"input_ids": t_(input_ids), "attention_mask": t_(attention_mask), "token_type_ids": t_(torch.tensor(types))},
                       "outputs": {"last_hidden_state": t_(out["last_hidden_state"]), "pooler_output": t_(out["pooler_output"])}}
    write("embedded-bert", cases)


def tokenizer_corpus(folder):
    """WordPiece ids of 240+ varied sentences under the embedded vocabulary, from the independent
    Python reference (tooling/reference/wordpiece_reference.py)."""
    tokenizer = json.loads((folder / "tokenizer.json").read_text())
    vocab = tokenizer["model"]["vocab"]
    fixed = [
        "", " ", "Hello, world!", "The quick brown fox jumps over the lazy dog.", "Café déjà vu", "ÉCOLE NORMALE SUPÉRIEURE",
        "naïve coöperation façade résumé", "Zürich, Genève & Bern", "Ångström units", "東京タワーに行きました", "北京是中国的首都。",
        "我爱自然语言处理", "한국어 문장입니다", "Привет, как дела?", "Ελληνικά γράμματα", "مرحبا بالعالم", "שלום עולם",
        "emoji 🤖🚀 and ✨ sparkles", "flags 🇫🇷🇩🇪", "👍🏽 thumbs", "unbelievably antidisestablishmentarianism", "supercalifragilisticexpialidocious",
        "don't, won't, can't; I'm — you're…", "e-mail: someone@example.com", "https://example.org/path?query=1&x=2",
        "C++ and C# are languages", "$100.00 (USD) + 20% tax = $120", "3.14159 2.71828 1e-9", "12,345,678 people",
        "tab\tseparated\twords", "new\nline", "multiple    spaces", "control\u0007char", "zero\u200bwidth", "x" * 120,
        "Mr. Smith's dog—a terrier—barked.", "«quotes» „German“ “curly”", "ALL CAPS SENTENCE HERE", "MiXeD cAsE wOrDs",
        "hyphen-ated-word and under_score", "(parentheses) [brackets] {braces} <angles>", "¡Hola! ¿Qué tal?", "ça va? très bien",
        "I ❤️ NY", "10:30 a.m. on 2026-11-22", "#hashtag @mention", "fin-de-siècle", "Ⅻ roman numeral", "ﬁ ligature", "full-width ＡＢＣ１２３",
    ]
    words = ["attention", "is", "all", "you", "need", "transformers", "tokenizer", "embedding", "Ünïcödé", "naïve", "東京",
             "running", "jumped", "happily", "preprocessing", "GPU", "WebGL", "wasm", "2026", "état", "coöperate", "🙂",
             "reimplementation", "well-known", "o'clock", "U.S.A.", "e.g.", "x86_64", "résumé", "Schrödinger"]
    generator = torch.Generator().manual_seed(7)
    generated = []
    for _ in range(200):
        n = int(torch.randint(1, 12, (1,), generator=generator))
        picks = torch.randint(0, len(words), (n,), generator=generator).tolist()
        sentence = " ".join(words[i] for i in picks)
        if int(torch.randint(0, 3, (1,), generator=generator)) == 0:
            sentence += "?!."[int(torch.randint(0, 3, (1,), generator=generator))]
        generated.append(sentence)
    sentences = fixed + generated
    payload = {"generator": "tooling/reference/make_fixtures.py (wordpiece_reference.py)", "torch": torch.__version__,
               "cases": {"corpus": {"sentences": sentences, "ids": [wordpiece_reference.encode(s, vocab) for s in sentences]}}}
    (OUT / "tokenizer-corpus.json").write_text(json.dumps(payload, ensure_ascii=False) + "\n")
    print(f"tokenizer-corpus.json: {len(sentences)} sentences")


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    print(f"torch {torch.__version__}", file=sys.stderr)
    masks()
    masked_softmax()
    scorers()
    pooling()
    attention()
    bert_cases()
    embedded = Path(__file__).resolve().parents[2] / 'packages' / 'models' / 'assets' / 'attnkit-tiny-bert'
    # The demo model is trained now (packages/train/scripts/train-demo-model.ts) and its reference
    # outputs come from transformers (make_embedded_model_fixture.py); embedded_model() below wrote
    # the earlier, untrained one and is kept for the record, not run.
    if (embedded / 'tokenizer.json').exists():  # written by packages/models/scripts/make-embedded-tokenizer.ts
        tokenizer_corpus(embedded)
