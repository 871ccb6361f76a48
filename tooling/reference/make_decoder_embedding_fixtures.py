"""Writes the decoder sentence-embedding fixtures: tiny random-weight sentence-transformers folders whose
Transformer module is a decoder (the Qwen3-Embedding layout), and SentenceTransformer.encode references.

Run from the repository root with the reference virtual environment (torch, transformers 5.17,
sentence-transformers 6.0.1, tokenizers):

    .venv-ref/bin/python tooling/reference/make_decoder_embedding_fixtures.py

It reads the tokenizers of the decoder fixtures (tooling/reference/fixtures/decoders/qwen3 and /llama, written
by make_decoder_fixtures.py) and deletes and rewrites, under tooling/reference/fixtures/:
  sentence-decoders/<name>/   folders written with SentenceTransformer(modules=[Transformer, Pooling, ...]).save:
      qwen3-lasttoken   Qwen3Model (head_dim 16, grouped-query), Pooling lasttoken with include_prompt true,
                        Normalize; the Qwen3-Embedding layout: a Qwen2Tokenizer whose post-processor
                        (TemplateProcessing) appends <|endoftext|>, padding_side left, pad = eos, prompts
                        {"query": "Instruct: find the book\\nQuery:", "document": ""} with no default prompt
      llama-mean-prompt LlamaModel, Pooling mean with include_prompt false, Normalize; a LlamaTokenizer with
                        add_bos_token and add_eos_token (post-processor "<s> $A </s>"), padding_side left,
                        pad = </s>, prompts {"query": "query: ", "passage": "passage: "}, default "query"
  sentence-decoders.json      per folder: the texts, each text's ids inside encode (default prompt), and
                              SentenceTransformer(folder).double().encode(...) for several options (batch_size
                              2 and 32, prompt_name, prompt, an empty prompt, normalize_embeddings, token
                              embeddings), plus the left-padded input ids and attention mask of the 32 batch

The six texts have different lengths (one is cut at max_seq_length 64, with and without a prompt), so every batch is left-padded. Each
model is a seeded random init (initializer_range 0.2) with noise on every norm weight and bias, saved in
float32; references come from the saved folder reloaded as a consumer would, in float64 (.double(), sdpa
attention: eager float64 attention turns a fully padded query row into NaN). The script checks that every
reference is finite, that the float32 model agrees with the float64 one (the gap is recorded), and that
each text embedded alone equals its row of the batch (rotary positions: left padding shifts every position
of a row by the same amount, which attention does not see; ≤ 1e-6, because transformers computes the rotary
angles in float32 even in a float64 model, and a shifted position rounds differently). No network is used; the output is deterministic.
"""
import json
import os
import shutil
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

import numpy as np
import sentence_transformers
import torch
import transformers
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer import modules as st_models
from transformers import AutoTokenizer, LlamaConfig, LlamaModel, Qwen3Config, Qwen3Model

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
DECODERS = FIXTURES / "decoders"
OUT = FIXTURES / "sentence-decoders"
GENERATOR = "tooling/reference/make_decoder_embedding_fixtures.py"
MAX_SEQ_LENGTH = 64
TEXTS = [
    "The cat sat",
    "Hello world, the quick brown fox jumps over the lazy dog and the cat sat on the mat with the book; the people of the city read a new book every day and night, and music is good",
    "ça coûte très cher 😀",
    "我们 今天 去 北京",
    "good",
    "The quick brown fox jumps over the lazy dog.",
]
QWEN_INSTRUCT = "Instruct: find the book\nQuery:"  # Qwen3-Embedding's format, short: the tiny vocabulary spends a token per letter on unseen words

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()


def log(*args):
    print(*args, flush=True)


def number(v):
    return float(f"{v:.9g}")


def floats(x):
    return np.vectorize(number, otypes=[float])(np.asarray(x, dtype=np.float64)).tolist()


BASE = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, intermediate_size=64, initializer_range=0.2, rms_norm_eps=1e-6, max_position_embeddings=64, vocab_size=320)


def specs():
    return [
        dict(
            name="qwen3-lasttoken",
            tokenizer=DECODERS / "qwen3",
            tokenizer_kwargs=dict(padding_side="left"),
            eos_template=True,
            model=lambda: Qwen3Model(Qwen3Config(**BASE, head_dim=16, bos_token_id=None, eos_token_id=317, pad_token_id=317, tie_word_embeddings=True)),
            pooling="lasttoken",
            include_prompt=True,
            prompts={"query": QWEN_INSTRUCT, "document": ""},
            default_prompt_name=None,
            cases=[dict(batch_size=2), dict(batch_size=32), dict(batch_size=2, prompt_name="query"), dict(batch_size=32, prompt_name="query"), dict(batch_size=2, prompt_name="document"), dict(batch_size=2, prompt="custom: ")],
        ),
        dict(
            name="llama-mean-prompt",
            tokenizer=DECODERS / "llama",
            tokenizer_kwargs=dict(padding_side="left", add_bos_token=True, add_eos_token=True, pad_token="</s>"),
            eos_template=False,
            model=lambda: LlamaModel(LlamaConfig(**BASE, bos_token_id=1, eos_token_id=2, pad_token_id=2, tie_word_embeddings=False)),
            pooling="mean",
            include_prompt=False,
            prompts={"query": "query: ", "passage": "passage: "},
            default_prompt_name="query",
            cases=[dict(batch_size=2), dict(batch_size=32), dict(batch_size=2, prompt_name="passage"), dict(batch_size=2, prompt=""), dict(batch_size=32, prompt="custom prompt, longer: ")],
        ),
    ]


def perturb(model, seed):
    """Norm weights and biases away from their init (a wrong wiring must not hide behind ones and zeros)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name or name.endswith(".bias"):
                p.add_(0.2 * torch.randn(p.shape, generator=g))


def make_transformer_folder(spec, index, where):
    """The Hugging Face folder the Transformer module reads: the decoder's base model and the tokenizer."""
    tok = AutoTokenizer.from_pretrained(spec["tokenizer"], **spec["tokenizer_kwargs"])
    if spec["eos_template"]:
        from tokenizers import processors

        eos = tok.eos_token
        tok.backend_tokenizer.post_processor = processors.TemplateProcessing(single=f"$A:0 {eos}:0", pair=f"$A:0 {eos}:0 $B:1 {eos}:1", special_tokens=[(eos, tok.eos_token_id)])
    torch.manual_seed(3000 + index)
    model = spec["model"]().eval()
    perturb(model, 4000 + index)
    model.save_pretrained(where, safe_serialization=True)
    tok.save_pretrained(where)


def build(spec, index, staging):
    make_transformer_folder(spec, index, staging)
    tr = st_models.Transformer(str(staging), max_seq_length=MAX_SEQ_LENGTH)
    dim = tr.get_embedding_dimension()
    modules = [tr, st_models.Pooling(dim, pooling_mode=spec["pooling"], include_prompt=spec["include_prompt"]), st_models.Normalize()]
    return SentenceTransformer(modules=modules, device="cpu", prompts=spec["prompts"], default_prompt_name=spec["default_prompt_name"])


def encode(model, texts, options, output_value="sentence_embedding"):
    return model.encode(texts, output_value=output_value, show_progress_bar=False, convert_to_numpy=output_value == "sentence_embedding", **options)


def make(spec, index):
    name = spec["name"]
    folder = OUT / name
    staging = OUT / f".staging-{name}"
    shutil.rmtree(staging, ignore_errors=True)
    build(spec, index, staging).save(str(folder))
    shutil.rmtree(staging)
    loaded64 = SentenceTransformer(str(folder), device="cpu", model_kwargs={"attn_implementation": "sdpa"}).double()
    loaded32 = SentenceTransformer(str(folder), device="cpu", model_kwargs={"attn_implementation": "sdpa"})
    tok = loaded64.tokenizer
    assert tok.padding_side == "left", tok.padding_side
    ids = loaded64.preprocess([TEXTS[0]])["input_ids"][0].tolist()
    assert ids[-1] == tok.eos_token_id, f"{name}: the tokenizer does not append eos: {ids}"
    cases = []
    worst32 = 0.0
    worst_alone = 0.0
    for options in spec["cases"]:
        emb = encode(loaded64, TEXTS, options)
        assert emb.dtype == np.float64 and np.isfinite(emb).all(), (name, options)
        prompt = loaded64._resolve_prompt(options.get("prompt"), options.get("prompt_name"))
        case = {"options": options, "output_value": "sentence_embedding", "applied_prompt": prompt, "embeddings": floats(emb)}
        if prompt:
            case["prompt_length"] = loaded64[0]._get_prompt_length(prompt)
            case["pooling_drops_prompt_tokens"] = not spec["include_prompt"]
        cases.append(case)
        worst32 = max(worst32, float(np.abs(encode(loaded32, TEXTS, options) - emb).max()))
        for i, text in enumerate(TEXTS):
            alone = encode(loaded64, [text], dict(options, batch_size=1))
            worst_alone = max(worst_alone, float(np.abs(alone[0] - emb[i]).max()))
    assert worst_alone < 1e-6, (name, worst_alone)  # transformers computes the rotary cos and sin in float32 even in a float64 model
    assert worst32 < 1e-5, (name, worst32)
    tokens = encode(loaded64, TEXTS, {"batch_size": 32}, output_value="token_embeddings")
    assert all(t.dtype == torch.float64 and torch.isfinite(t).all() for t in tokens)
    cases.append({"options": {"batch_size": 32}, "output_value": "token_embeddings", "applied_prompt": loaded64._resolve_prompt(None, None), "embeddings": [floats(t) for t in tokens]})
    default_prompt = loaded64._resolve_prompt(None, None)
    batch = loaded64.preprocess(TEXTS, prompt=default_prompt)
    pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    entry = {
        "folder": f"sentence-decoders/{name}",
        "model_type": loaded64[0].auto_model.config.model_type,
        "modules": [m["type"] for m in json.loads((folder / "modules.json").read_text())],
        "pooling": pooling,
        "max_seq_length": loaded64.max_seq_length,
        "padding_side": tok.padding_side,
        "prompts": loaded64.prompts,
        "default_prompt_name": loaded64.default_prompt_name,
        "files": sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()),
        "texts": TEXTS,
        "input_ids": [loaded64.preprocess([t], prompt=default_prompt)["input_ids"][0].tolist() for t in TEXTS],
        "batch": {"input_ids": batch["input_ids"].tolist(), "attention_mask": batch["attention_mask"].tolist(), "order": "the texts in their given order, default prompt"},
        "float32_vs_float64": number(worst32),
        "alone_vs_batch_float64": number(worst_alone),
        "cases": cases,
    }
    log(f"  {name}: {entry['modules']} pooling={pooling} float32 vs float64 {worst32:.2e}, alone vs batch {worst_alone:.2e}")
    return entry


def main():
    torch.manual_seed(0)
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    out = {
        "generator": GENERATOR,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "sentence_transformers": sentence_transformers.__version__,
        "folders": {spec["name"]: make(spec, i) for i, spec in enumerate(specs())},
    }
    (FIXTURES / "sentence-decoders.json").write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n")
    log(f"sentence-decoders.json: {len(out['folders'])} folders")


if __name__ == "__main__":
    main()
