"""Writes the ModernBERT fixtures: tiny random-weight ModernBERT folders saved by transformers 5.17 and
their float64 references.

Run from the repository root with the reference virtual environment (torch, transformers,
sentence-transformers, tokenizers):

    /work/main/.venv-ref/bin/python tooling/reference/make_modernbert_fixtures.py

It deletes and rewrites, under tooling/reference/fixtures/:
  modernbert/sentence-mean/  a sentence-transformers folder (SentenceTransformer.save): the ModernBertModel at
                             its root (config.json, model.safetensors, tokenizer) with mean pooling; loadEncoder
                             reads it as a plain model folder
  modernbert/cls/            ModernBertForSequenceClassification, classifier_pooling "cls" (no biases, as the
                             published checkpoints)
  modernbert/mean/           ModernBertForSequenceClassification, classifier_pooling "mean", with every bias
                             (norm_bias, attention_bias, mlp_bias, classifier_bias), gelu_new and silu activations
  modernbert/mlm/            ModernBertForMaskedLM, 2 layers, the decoder tied to the token embeddings
  modernbert.json            the token ids of a right-padded batch of two texts (lengths 12 and 7) and of each
                             text alone; float64 last_hidden_state, hidden_states, classifier logits, sentence
                             embeddings, masked-LM logits; how transformers reads a config of the older format
                             (global_attn_every_n_layers, global_rope_theta, local_rope_theta)

The models are small (hidden 32, 4 heads of 8, 4 or 3 layers with global_attn_every_n_layers=2 so both global
and sliding-window layers appear, local_attention 4 so the window |i - j| <= 2 matters at length 10, vocabulary
100). Every weight is a seeded random init with noise added to the norms and biases, saved in float32;
references come from the saved folders reloaded (AutoModel... / SentenceTransformer(path)) in float64 with
attn_implementation="sdpa" (transformers' "eager" gives NaN at every token of a padded sequence here: a padded
query whose whole window is padding gets a row of -inf scores, and its NaN output reaches the real tokens through
zero attention weights in the next layer). The hidden states are recorded at the real tokens only, each sequence
its own length (what a padded position holds is the implementation's business). The tokenizer is a WordPiece vocabulary written here (no training), wrapped in
PreTrainedTokenizerFast. The script checks that transformers' padded output at the real tokens equals the
unpadded one.
"""
import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import torch
import transformers
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer import modules as st_models
from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
from tokenizers import models as tk_models
from transformers import (
    AutoModel,
    AutoModelForMaskedLM,
    AutoModelForSequenceClassification,
    ModernBertConfig,
    ModernBertForMaskedLM,
    ModernBertForSequenceClassification,
    ModernBertModel,
    PreTrainedTokenizerFast,
)

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
OUT = FIXTURES / "modernbert"
GENERATOR = "tooling/reference/make_modernbert_fixtures.py"
SEED = 20261127

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()
torch.set_num_threads(2)

SPECIALS = ["[PAD]", "[CLS]", "[SEP]", "[MASK]", "[UNK]"]
WORDS = (
    "the quick brown fox jumps over lazy dog a cat sat on mat and or but with from into this that is are was "
    "be have has had do not no yes it we you they he she city river mountain music book reading running "
    "learning language people time year day night good new first last long great little old right big high "
    "small large next early young few bad same able visit mail path example stop price very today study "
    "sliding window attention model token"
).split()
VOCAB = SPECIALS + sorted(set(WORDS))
assert len(VOCAB) <= 100, len(VOCAB)
VOCAB += [f"##{c}" for c in "abcdefghijklmnopqrstuvwxyz"][: 100 - len(VOCAB)]
assert len(VOCAB) == 100

TEXTS = [
    "the quick brown fox jumps over the lazy dog today",
    "a cat sat on mat",
]


def floats(x):
    arr = np.asarray(x.detach().cpu().double().numpy() if isinstance(x, torch.Tensor) else x, dtype=np.float64)
    assert np.all(np.isfinite(arr))
    return arr.tolist()


def ints(x):
    return np.asarray(x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else x).astype(np.int64).tolist()


def make_tokenizer(folder):
    tok = Tokenizer(tk_models.WordPiece({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True, clean_text=True, handle_chinese_chars=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]", unk_token="[UNK]", model_max_length=64)
    fast.save_pretrained(str(folder))


def config(**overrides):
    base = dict(
        vocab_size=100, hidden_size=32, intermediate_size=32, num_hidden_layers=4, num_attention_heads=4,
        global_attn_every_n_layers=2, local_attention=4, max_position_embeddings=64,
        pad_token_id=0, bos_token_id=1, eos_token_id=2, cls_token_id=1, sep_token_id=2,
        global_rope_theta=160000.0, local_rope_theta=10000.0,
    )
    base.update(overrides)
    return ModernBertConfig(**base)


def perturb(model, scale=0.1):
    """Non-trivial norms and biases (a wrong wiring must not hide behind zeros and ones), and queries and keys
    large enough that the attention is peaked: with the init's std 0.02 every score is near 0, and a wrong
    rotary theta or position would change the outputs by less than the tolerance."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name or name.endswith(".bias"):
                p.add_(scale * torch.randn_like(p))
            if name.endswith("attn.Wqkv.weight"):
                p.mul_(15.0)
    return model


def reload(cls, folder):
    model = cls.from_pretrained(str(folder), attn_implementation="sdpa").double().eval()
    assert next(model.parameters()).dtype == torch.float64
    return model


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    torch.manual_seed(SEED)

    # 1. The encoder, saved as a sentence-transformers folder (the model at its root).
    sentence = OUT / "sentence-mean"
    plain = OUT / "_plain"
    perturb(ModernBertModel(config())).save_pretrained(str(plain))
    make_tokenizer(plain)
    tr = st_models.Transformer(str(plain), max_seq_length=16)
    st = SentenceTransformer(modules=[tr, st_models.Pooling(32, pooling_mode="mean")], device="cpu")
    st.save(str(sentence))
    shutil.rmtree(plain)

    tokenizer = transformers.AutoTokenizer.from_pretrained(str(sentence))
    batch = tokenizer(TEXTS, padding=True, return_tensors="pt")
    ids, mask = batch["input_ids"], batch["attention_mask"]
    lengths = mask.sum(1).tolist()
    assert ids.shape[1] == 12 and lengths == [12, 7], (ids.shape, lengths)
    assert tokenizer.unk_token_id not in ids.tolist()

    encoder = reload(AutoModel, sentence)
    assert type(encoder).__name__ == "ModernBertModel"
    with torch.no_grad():
        out = encoder(input_ids=ids, attention_mask=mask, output_hidden_states=True)
        singles = [encoder(input_ids=ids[b : b + 1, : lengths[b]]).last_hidden_state[0] for b in range(2)]
    for b in range(2):
        diff = (out.last_hidden_state[b, : lengths[b]] - singles[b]).abs().max().item()
        assert diff < 1e-12, f"transformers: padded != unpadded ({diff})"
    # the sliding window matters: a full-attention model differs
    with torch.no_grad():
        full = reload(AutoModel, sentence)
        full.config.layer_types = ["full_attention"] * 4
        for layer in full.layers:
            layer.attention_type = "full_attention"
        wide = full(input_ids=ids, attention_mask=mask).last_hidden_state
        assert (wide - out.last_hidden_state).abs().max().item() > 1e-3

    st64 = SentenceTransformer(str(sentence), device="cpu").double()
    embeddings = st64.encode(TEXTS, batch_size=2, convert_to_numpy=True)

    cases = {
        "generator": GENERATOR,
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "texts": TEXTS,
        "encoder": {
            "folder": "modernbert/sentence-mean",
            "inputs": {"input_ids": ints(ids), "attention_mask": ints(mask)},
            "singles": [ints(ids[b, : lengths[b]]) for b in range(2)],
            "lengths": lengths,
            "last_hidden_state": [floats(out.last_hidden_state[b, : lengths[b]]) for b in range(2)],
            "hidden_states": [[floats(h[b, : lengths[b]]) for b in range(2)] for h in out.hidden_states],
            "sentence_embeddings": floats(embeddings),
        },
        "classifiers": {},
    }

    # 2. Sequence classifiers: cls pooling (no biases), mean pooling (every bias, other activations).
    specs = {
        "cls": dict(num_hidden_layers=3, classifier_pooling="cls", num_labels=3),
        "mean": dict(
            num_hidden_layers=3, classifier_pooling="mean", num_labels=2, norm_bias=True, attention_bias=True,
            mlp_bias=True, classifier_bias=True, hidden_activation="gelu_new", classifier_activation="silu",
            global_rope_theta=5000.0, local_rope_theta=500.0, local_attention=5,
        ),
    }
    for name, spec in specs.items():
        folder = OUT / name
        model = perturb(ModernBertForSequenceClassification(config(**spec)))
        model.config.id2label = {i: f"label_{name}_{i}" for i in range(spec["num_labels"])}
        model.config.label2id = {v: k for k, v in model.config.id2label.items()}
        model.save_pretrained(str(folder))
        loaded = reload(AutoModelForSequenceClassification, folder)
        with torch.no_grad():
            logits = loaded(input_ids=ids, attention_mask=mask).logits
            single = [loaded(input_ids=ids[b : b + 1, : lengths[b]]).logits[0] for b in range(2)]
        for b in range(2):
            assert (logits[b] - single[b]).abs().max().item() < 1e-12
        cases["classifiers"][name] = {"folder": f"modernbert/{name}", "pooling": spec["classifier_pooling"], "logits": floats(logits)}

    # 3. The masked-LM (2 layers; decoder tied to the token embeddings, as save_pretrained stores it: decoder.bias only).
    folder = OUT / "mlm"
    mlm = perturb(ModernBertForMaskedLM(config(num_hidden_layers=2, classifier_activation="gelu_new")))
    mlm.save_pretrained(str(folder))
    loaded = reload(AutoModelForMaskedLM, folder)
    assert loaded.decoder.weight.data_ptr() == loaded.model.embeddings.tok_embeddings.weight.data_ptr()
    with torch.no_grad():
        logits = loaded(input_ids=ids, attention_mask=mask).logits
    cases["masked_lm"] = {"folder": "modernbert/mlm", "logits": [floats(logits[b, : lengths[b]]) for b in range(2)]}

    # 4. How transformers reads the older config format (as on the Hub: answerdotai/ModernBERT-base).
    legacy = dict(
        model_type="modernbert", vocab_size=100, hidden_size=32, intermediate_size=32, num_hidden_layers=7,
        num_attention_heads=4, global_attn_every_n_layers=3, global_rope_theta=80000.0, local_rope_theta=2000.0,
        local_attention=6, max_position_embeddings=64, pad_token_id=0,
    )
    read = ModernBertConfig(**{k: v for k, v in legacy.items() if k != "model_type"})
    cases["legacy_config"] = {
        "config": legacy,
        "layer_types": read.layer_types,
        "global_rope_theta": read.rope_parameters["full_attention"]["rope_theta"],
        "local_rope_theta": read.rope_parameters["sliding_attention"]["rope_theta"],
        "sliding_window": read.sliding_window,
    }
    defaults = ModernBertConfig()
    cases["defaults"] = {
        "layer_types_22": defaults.layer_types,
        "global_rope_theta": defaults.rope_parameters["full_attention"]["rope_theta"],
        "local_rope_theta": defaults.rope_parameters["sliding_attention"]["rope_theta"],
    }

    path = FIXTURES / "modernbert.json"
    path.write_text(json.dumps(cases, separators=(",", ":"), allow_nan=False) + "\n", encoding="utf-8")
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1e3:.1f} kB")
    for f in sorted(OUT.rglob("*")):
        if f.is_file():
            print(f"  {f.relative_to(OUT)}: {f.stat().st_size / 1e3:.1f} kB")


if __name__ == "__main__":
    main()
