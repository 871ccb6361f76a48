"""Writes fixtures/tokenizer-components.json: for every normalizer, pre-tokenizer, model, post-processor and
decoder type (and setting) that the `tokenizers` library serialises into tokenizer.json, a small tokenizer
using it, the ids the library gives for a fixed list of texts and pairs, and its decode of each text.

Run from the repository root with the reference virtual environment (tokenizers 0.23):

    .venv-ref/bin/python tooling/reference/make_tokenizer_component_fixtures.py

Texts: the texts of the existing tokenizer fixtures (every third sentence of fixtures/tokenizer-corpus.json, which
recombines one word list; every single text of fixtures/families.json) plus edge cases (empty, whitespace runs, digits, punctuation, accents, CJK,
emoji, control and format characters, special-token strings, characters the Rust library classes by frozen
Unicode tables); pairs: those of families.json plus edge pairs.

Vocabularies are learned here, deterministically, from the corpus sentences and the family texts (tokenizers'
WordPieceTrainer and UnigramTrainer depend on hash-map order): BPE merges (most frequent pair first, ties by
the pair's text) over byte-level, character, "##"-prefixed, "</w>"-suffixed and SentencePiece-style
("▁"-joined) words; a WordPiece vocabulary from the same merges; a Unigram piece list scored
log(frequency / total); a WordLevel vocabulary of the most frequent words; a hand-made character vocabulary
for CTC. Each model (with its special tokens as added tokens) is written once under "models"; a case names
its model and gives the other components. Every case's tokenizer.json is exactly
{"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer", "post_processor",
"decoder", "model"} with the named model and added tokens put in, and the references come from
tokenizers.Tokenizer.from_str of that JSON:

  ids[i]        encode(texts[i]).ids (special tokens added, no truncation)
  decoded[i]    decode(ids[i], skip_special_tokens=True); null when it equals texts[i]
  type_ids[i]   encode(texts[i]).type_ids, only for post-processor cases
  pairs[j]      [encode(a, b).ids, encode(a, b).type_ids]

"refused" lists the files attnkit refuses by name, each with what the Python library does with it. The
script asserts that a second run of every case gives the same ids (BPE dropout would not). The output is
deterministic.
"""
import json
import math
import re
from pathlib import Path

import tokenizers
from tokenizers import Tokenizer, normalizers, pre_tokenizers

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
OUT = FIXTURES / "tokenizer-components.json"
GENERATOR = "tooling/reference/make_tokenizer_component_fixtures.py"

EDGE_TEXTS = [
    "", " ", "     ", "\t\n\r", " \u00a0\u3000 ", "a  b   c", "  leading spaces", "trailing spaces   ", "tab\there and\nnew line\r\nend",
    "0", "12345 67 8", "3.14 1,000,000 -7 1e-5", "٣٤٥ ۱۲ ²½ Ⅻ ① ٣x", "!!! ??? ...", "hello...world!!", "a-b--c---d", "(nested [brackets] {here})",
    "don't can't it's we're I'm you've", "e-mail: john.doe@example.com", "café cafe\u0301 naïve nai\u0308ve", "ÀÉÎÕÜ àéîõü Ǆ ǅ ǆ", "Straße İstanbul ΣΑΣ σας",
    "中文字符和标点。", "日本語のひらがなとカタカナー", "한국어 텍스트", "\U00020000\U0002b820\U0002b920 \u3400",
    "🙂 👍🏽 👩\u200d👩\u200d👧 🇯🇵 🫠", "a\u0000b\u0001c\u007fd\u0085e", "\ufeffbom mid\ufeffdle", "zero\u200bwidth\u200djoiner", "ＦＵＬＬ ｗｉｄｔｈ ｶﾞ", "ﬁ ﬂ ½ ① ™ ㎏",
    "x² H₂O 𝐀𝐁 𝟏", "\u0890\u08e2 \u2e43 \u061d a\u2e52b", "<s>hello</s>", "[CLS] cls and sep [SEP]", "  <s>  spaced  </s>  ", "▁already▁metaspace ▁", "<0x41> <unk>", "\u0001\u200b control first", "\u0301accent first",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "supercalifragilistic" * 6, "The THE the tHe", "is is is", "Hello WORLD, this is a Test.", "   many    spaces   between   ",
]
EDGE_PAIRS = [("", "second only"), ("first only", ""), ("a b", "c d"), ("Hello, world!", "<s>hi</s>")]

CORPUS_STEP = 3  # every third corpus sentence: they recombine one word list, and every case runs every text

BYTE_TOKENS = [f"<0x{b:02X}>" for b in range(256)]
GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3_PATTERN = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"


def load_texts():
    corpus = json.loads((FIXTURES / "tokenizer-corpus.json").read_text())["cases"]["corpus"]["sentences"]
    families = json.loads((FIXTURES / "families.json").read_text())
    texts, pairs = [], []
    for text in corpus[::CORPUS_STEP] + [s["text"] for f in families.values() for s in f["tokenizer"]["single"]] + EDGE_TEXTS:
        if text not in texts:
            texts.append(text)
    for pair in [(p["a"], p["b"]) for f in families.values() for p in f["tokenizer"]["pairs"]] + EDGE_PAIRS:
        if list(pair) not in pairs:
            pairs.append(list(pair))
    train = corpus + [s["text"] for s in families["bert"]["tokenizer"]["single"]]
    return texts, pairs, train


# ---------------------------------------------------------------- learners (deterministic)

def word_counts(corpus, normalizer, pre_tokenizer):
    counts = {}
    for line in corpus:
        text = normalizer.normalize_str(line) if normalizer is not None else line
        words = [w for w, _ in pre_tokenizer.pre_tokenize_str(text)] if pre_tokenizer is not None else [text]
        for word in words:
            if word:
                counts[word] = counts.get(word, 0) + 1
    return counts


def learn_merges(words, counts, size, join):
    """BPE merges over `words` (word -> symbols): most frequent pair first, ties by the pair's text; `join`
    makes the merged symbol. Returns the merges and the new symbols in order."""
    merges, new = [], []
    for _ in range(size):
        pairs = {}
        for w, syms in words.items():
            for a, b in zip(syms, syms[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + counts[w]
        if not pairs:
            break
        (a, b), n = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        if n < 2:
            break
        merged = join(a, b)
        merges.append([a, b])
        if merged not in new:
            new.append(merged)
        for w, syms in words.items():
            out, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
                    out.append(merged)
                    i += 2
                else:
                    out.append(syms[i])
                    i += 1
            words[w] = out
    return merges, new


def bpe_model(counts, specials, merges_count, prefix=None, suffix=None, min_char=1, alphabet=None, extra=(), **options):
    char_counts = {}
    for w, n in counts.items():
        for c in w:
            char_counts[c] = char_counts.get(c, 0) + n
    chars = alphabet if alphabet is not None else sorted(c for c, n in char_counts.items() if n >= min_char)

    def symbols(w):
        syms = [c if i == 0 or prefix is None else prefix + c for i, c in enumerate(w)]
        if suffix is not None:
            syms[-1] += suffix
        return syms

    known = set(chars)
    words = {w: symbols(w) for w in sorted(counts) if all(c in known for c in w)}
    initial = sorted({s for syms in words.values() for s in syms} | set(chars))
    skip = len(prefix) if prefix else 0
    merges, new = learn_merges(words, counts, merges_count, lambda a, b: a + b[skip:])
    vocab = {}
    for token in list(specials) + list(extra) + initial + new:
        vocab.setdefault(token, len(vocab))
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": prefix, "end_of_word_suffix": suffix,
             "fuse_unk": False, "byte_fallback": False, "ignore_merges": False, "vocab": vocab, "merges": merges}
    model.update(options)
    return model


def wordpiece_model(counts, specials, vocab_size):
    words = {w: [w[0]] + ["##" + c for c in w[1:]] for w in sorted(counts)}
    alphabet = sorted({s for syms in words.values() for s in syms}, key=lambda t: (t.startswith("##"), t))
    _, new = learn_merges(words, counts, vocab_size - len(specials) - len(alphabet), lambda a, b: a + b[2:])
    vocab = {}
    for token in list(specials) + alphabet + new:
        vocab.setdefault(token, len(vocab))
    return {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab}


def unigram_model(counts, specials, unk_id, vocab_size, max_piece=6, byte_fallback=False, min_char=1):
    freq = {}
    for w, c in counts.items():
        for i in range(len(w)):
            for j in range(i + 1, min(len(w), i + max_piece) + 1):
                freq[w[i:j]] = freq.get(w[i:j], 0) + c
    chars = sorted(p for p in freq if len(p) == 1 and freq[p] >= min_char)
    longer = sorted((p for p in freq if len(p) > 1 and freq[p] >= 2), key=lambda p: (-freq[p] * (len(p) - 1), p))
    pieces = chars + longer[: max(0, vocab_size - len(specials) - len(chars))]
    total = float(sum(freq[p] for p in pieces))
    scored = sorted(((p, math.log(freq[p] / total)) for p in pieces), key=lambda ps: (-ps[1], ps[0]))
    vocab = [[s, 0.0] for s in specials] + ([[b, 0.0] for b in BYTE_TOKENS] if byte_fallback else []) + [[p, round(s, 6)] for p, s in scored]
    return {"type": "Unigram", "unk_id": unk_id, "vocab": vocab, "byte_fallback": byte_fallback}


def wordlevel_model(counts, specials, unk, size):
    words = sorted(counts, key=lambda w: (-counts[w], w))[:size]
    vocab = {}
    for token in list(specials) + words:
        vocab.setdefault(token, len(vocab))
    return {"type": "WordLevel", "vocab": vocab, "unk_token": unk}


def specials_of(names, vocab_ids, **flags):
    return [{"id": vocab_ids[n], "content": n, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True, **flags} for n in names]


def build_models(train):
    models, added = {}, {}
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet(), key=lambda c: ord(c))
    whitespace = pre_tokenizers.Whitespace()
    metaspace = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    nfkc = normalizers.NFKC()

    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    m = bpe_model(word_counts(train, None, byte_level), specials, 500, alphabet=alphabet)
    m["vocab"]["<mask>"] = len(m["vocab"])
    models["bytelevel"] = m
    added["bytelevel"] = specials_of(specials + ["<mask>"], m["vocab"])

    # whole words the merges cannot reach, so that ignore_merges shows
    m = json.loads(json.dumps(models["bytelevel"]))
    for word in [" transformers", " embedding", "Schrödinger"]:
        m["vocab"].setdefault("".join(BYTE_CHARS[b] for b in word.encode()), len(m["vocab"]))
    models["bytelevel-words"] = m
    added["bytelevel-words"] = added["bytelevel"]

    wp_specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    bert_norm = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    m = wordpiece_model(word_counts(train, bert_norm, pre_tokenizers.BertPreTokenizer()), wp_specials, 600)
    models["wordpiece"] = m
    added["wordpiece"] = specials_of(wp_specials, m["vocab"])

    counts = word_counts(train, nfkc, whitespace)
    m = bpe_model(counts, ["<unk>", "<s>", "</s>"], 300, min_char=3, unk_token="<unk>")
    models["bpe-char"] = m
    added["bpe-char"] = specials_of(["<unk>", "<s>", "</s>"], m["vocab"])
    m = bpe_model(counts, ["<unk>"], 300, prefix="##", min_char=3, unk_token="<unk>")
    models["bpe-prefix"] = m
    added["bpe-prefix"] = specials_of(["<unk>"], m["vocab"])
    m = bpe_model(counts, ["<unk>"], 300, suffix="</w>", min_char=3, unk_token="<unk>")
    models["bpe-suffix"] = m
    added["bpe-suffix"] = specials_of(["<unk>"], m["vocab"])

    llama_norm = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    m = bpe_model(word_counts(train, llama_norm, None), ["<unk>", "<s>", "</s>"], 400, min_char=3, extra=BYTE_TOKENS, unk_token="<unk>", byte_fallback=True, fuse_unk=True)
    models["bpe-byte-fallback"] = m
    added["bpe-byte-fallback"] = specials_of(["<unk>", "<s>", "</s>"], m["vocab"])

    meta_counts = word_counts(train, nfkc, pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), metaspace]))
    m = unigram_model(meta_counts, ["<s>", "<pad>", "</s>", "<unk>"], 3, 400, min_char=2)
    models["unigram"] = m
    added["unigram"] = specials_of(["<s>", "<pad>", "</s>", "<unk>"], {p: i for i, (p, _) in enumerate(m["vocab"])})
    m = unigram_model(meta_counts, ["<unk>", "<s>", "</s>"], 0, 300, byte_fallback=True, min_char=3)
    models["unigram-byte-fallback"] = m
    added["unigram-byte-fallback"] = specials_of(["<unk>", "<s>", "</s>"], {p: i for i, (p, _) in enumerate(m["vocab"])})

    m = wordlevel_model(word_counts(train, normalizers.Lowercase(), whitespace), ["[UNK]", "[PAD]", "[CLS]", "[SEP]"], "[UNK]", 300)
    models["wordlevel"] = m
    added["wordlevel"] = specials_of(["[UNK]", "[PAD]", "[CLS]", "[SEP]"], m["vocab"])

    chars = ["<pad>", "<s>", "</s>", "<unk>", "|"] + list("abcdefghijklmnopqrstuvwxyz'0123456789")
    m = {"type": "WordLevel", "vocab": {c: i for i, c in enumerate(chars)}, "unk_token": "<unk>"}
    models["ctc"] = m
    added["ctc"] = specials_of(["<pad>", "<s>", "</s>", "<unk>"], m["vocab"])
    return models, added


def _byte_chars():
    """GPT-2's byte-to-character table (the ByteLevel pre-tokenizer's)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    table = dict(zip(bs, cs))
    return [chr(table[b]) for b in range(256)]


BYTE_CHARS = _byte_chars()


# ---------------------------------------------------------------- cases

def split(pattern, behavior, invert=False, regex=True):
    return {"type": "Split", "pattern": {"Regex" if regex else "String": pattern}, "behavior": behavior, "invert": invert}


BYTES_AFTER = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
BYTE_LEVEL_PRE = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
BYTE_LEVEL_DEC = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
WORDPIECE_DEC = {"type": "WordPiece", "prefix": "##", "cleanup": True}
BERT_NORM = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": None, "lowercase": True}
METASPACE = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
BEHAVIORS = ["Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"]
LLAMA_DECODER = {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}


def template(single, pair, specials):
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": specials}


def tok(kind, *, type_id=0, sequence=None):
    return {"Sequence": {"id": sequence, "type_id": type_id}} if sequence else {"SpecialToken": {"id": kind, "type_id": type_id}}


def cases(models, charsmap):
    out = []

    def case(component, type_, name, model, normalizer=None, pre_tokenizer=None, post_processor=None, decoder=None, added=None, options=None):
        spec = {"normalizer": normalizer, "pre_tokenizer": pre_tokenizer, "post_processor": post_processor, "decoder": decoder, "model": model, "added_tokens": added or model}
        if options:
            spec["model_options"] = options
        out.append({"component": component, "type": type_, "name": name, "tokenizer": spec})

    # normalizers, on byte-level BPE (lossless: the ByteLevel decoder gives back the normalized text)
    def norm(type_, name, normalizer, pre=BYTE_LEVEL_PRE):
        case("normalizer", type_, name, "bytelevel", normalizer=normalizer, pre_tokenizer=pre, decoder=BYTE_LEVEL_DEC)

    norm("BertNormalizer", "default (clean_text, handle_chinese_chars, lowercase, strip_accents null)", BERT_NORM)
    norm("BertNormalizer", "cased, strip_accents true, no clean_text, no chinese chars", {**BERT_NORM, "clean_text": False, "handle_chinese_chars": False, "strip_accents": True, "lowercase": False})
    norm("BertNormalizer", "lowercase, strip_accents false", {**BERT_NORM, "strip_accents": False})
    for form in ["NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents", "Nmt"]:
        norm(form, form, {"type": form})
    norm("StripAccents", "after NFD", {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]})
    norm("Strip", "both sides", {"type": "Strip", "strip_left": True, "strip_right": True})
    norm("Strip", "left only", {"type": "Strip", "strip_left": True, "strip_right": False})
    norm("Strip", "right only", {"type": "Strip", "strip_left": False, "strip_right": True})
    norm("Replace", "String pattern", {"type": "Replace", "pattern": {"String": "is"}, "content": "IS$1"})
    norm("Replace", "Regex pattern", {"type": "Replace", "pattern": {"Regex": r"\s+|\d"}, "content": "_"})
    norm("Prepend", "Prepend", {"type": "Prepend", "prepend": "▁"})
    norm("Precompiled", "XLM-R style nmt_nfkc charsmap", {"type": "Precompiled", "precompiled_charsmap": charsmap})
    norm("ByteLevel", "ByteLevel normalizer (no pre-tokenizer)", {"type": "ByteLevel"}, pre=None)
    norm("Sequence", "Sequence[Nmt, NFKC, Replace] (the SentencePiece-style trainer's)", {"type": "Sequence", "normalizers": [{"type": "Nmt"}, {"type": "NFKC"}, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]})
    norm("Sequence", "Sequence[Lowercase, NFD, StripAccents, Strip]", {"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "NFD"}, {"type": "StripAccents"}, {"type": "Strip", "strip_left": True, "strip_right": True}]})

    # pre-tokenizers, followed by a byte mapping so that byte-level BPE sees each piece whole
    def pre(type_, name, pre_tokenizer, model="bytelevel"):
        case("pre_tokenizer", type_, name, model, pre_tokenizer={"type": "Sequence", "pretokenizers": [pre_tokenizer, BYTES_AFTER]}, decoder=BYTE_LEVEL_DEC)

    pre("BertPreTokenizer", "BertPreTokenizer", {"type": "BertPreTokenizer"})
    case("pre_tokenizer", "ByteLevel", "add_prefix_space false, use_regex true", "bytelevel", pre_tokenizer=BYTE_LEVEL_PRE, decoder=BYTE_LEVEL_DEC)
    case("pre_tokenizer", "ByteLevel", "add_prefix_space true, use_regex true", "bytelevel", pre_tokenizer={**BYTE_LEVEL_PRE, "add_prefix_space": True}, decoder=BYTE_LEVEL_DEC)
    case("pre_tokenizer", "ByteLevel", "add_prefix_space false, use_regex false", "bytelevel", pre_tokenizer={**BYTE_LEVEL_PRE, "use_regex": False}, decoder=BYTE_LEVEL_DEC)
    pre("Whitespace", "Whitespace", {"type": "Whitespace"})
    pre("WhitespaceSplit", "WhitespaceSplit", {"type": "WhitespaceSplit"})
    pre("CharDelimiterSplit", "delimiter '-'", {"type": "CharDelimiterSplit", "delimiter": "-"})
    pre("CharDelimiterSplit", "delimiter ' '", {"type": "CharDelimiterSplit", "delimiter": " "})
    for behavior in BEHAVIORS:
        pre("Split", f"String ' ', {behavior}", split(" ", behavior, regex=False))
        pre("Split", f"Regex \\s+, {behavior}", split(r"\s+", behavior))
        pre("Split", f"Regex \\p{{L}}+ inverted, {behavior}", split(r"\p{L}+", behavior, invert=True))
        pre("Punctuation", behavior, {"type": "Punctuation", "behavior": behavior})
    pre("Split", "GPT-2 pattern, Isolated", split(GPT2_PATTERN, "Isolated"))
    pre("Split", "Llama-3 pattern, Isolated", split(LLAMA3_PATTERN, "Isolated"))
    pre("Split", "Regex [aeiou] (case-insensitive group), MergedWithNext", split(r"(?i:[aeiou])", "MergedWithNext"))
    pre("Digits", "individual_digits true", {"type": "Digits", "individual_digits": True})
    pre("Digits", "individual_digits false", {"type": "Digits", "individual_digits": False})
    pre("UnicodeScripts", "UnicodeScripts", {"type": "UnicodeScripts"})
    pre("FixedLength", "length 3", {"type": "FixedLength", "length": 3})
    pre("Sequence", "Sequence[WhitespaceSplit, Punctuation, Digits]", {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, {"type": "Punctuation", "behavior": "Isolated"}, {"type": "Digits", "individual_digits": True}]})
    for scheme in ["first", "always", "never"]:
        for split_ in [True, False]:
            meta = {**METASPACE, "prepend_scheme": scheme, "split": split_}
            case("pre_tokenizer", "Metaspace", f"prepend_scheme {scheme}, split {str(split_).lower()}", "unigram", normalizer={"type": "NFKC"}, pre_tokenizer=meta, decoder=meta)
    first = {**METASPACE, "prepend_scheme": "first"}
    case("pre_tokenizer", "Metaspace", "prepend_scheme first after WhitespaceSplit", "unigram", normalizer={"type": "NFKC"},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, first]}, decoder=first)
    # "first" means: the piece starts at the original text's first character, which a normalizer may have deleted
    case("pre_tokenizer", "Metaspace", "prepend_scheme first after a Strip normalizer", "unigram", normalizer={"type": "Strip", "strip_left": True, "strip_right": True}, pre_tokenizer=first, decoder=first)
    case("pre_tokenizer", "Metaspace", "prepend_scheme first, T5-style normalizer Sequence[Nmt, NFKC, Replace]", "unigram",
         normalizer={"type": "Sequence", "normalizers": [{"type": "Nmt"}, {"type": "NFKC"}, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]}, pre_tokenizer=first, decoder=first)
    case("pre_tokenizer", "Metaspace", "prepend_scheme first after WhitespaceSplit, BertNormalizer (controls removed)", "unigram", normalizer=BERT_NORM,
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, first]}, decoder=first)
    case("pre_tokenizer", "Metaspace", "prepend_scheme first, Replace normalizer deleting spaces", "unigram", normalizer={"type": "Replace", "pattern": {"Regex": "^ +| "}, "content": ""}, pre_tokenizer=first, decoder=first)
    case("pre_tokenizer", "Metaspace", "prepend_scheme first after UnicodeScripts, NFD normalizer (a split inside the first character)", "unigram", normalizer={"type": "NFD"},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "UnicodeScripts"}, {**first, "split": False}]}, decoder=first)
    case("pre_tokenizer", "Metaspace", "prepend_scheme first after WhitespaceSplit, Prepend normalizer", "unigram", normalizer={"type": "Prepend", "prepend": "x "},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, first]}, decoder=first)

    # models
    case("model", "WordPiece", "BERT pipeline (BertNormalizer, BertPreTokenizer, BertProcessing, WordPiece decoder)", "wordpiece", normalizer=BERT_NORM,
         pre_tokenizer={"type": "BertPreTokenizer"}, post_processor={"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]}, decoder=WORDPIECE_DEC)
    case("model", "WordPiece", "max_input_chars_per_word 8", "wordpiece", normalizer=BERT_NORM, pre_tokenizer={"type": "BertPreTokenizer"}, decoder=WORDPIECE_DEC, options={"max_input_chars_per_word": 8})
    case("model", "BPE", "byte-level (RoBERTa pipeline)", "bytelevel", pre_tokenizer={**BYTE_LEVEL_PRE, "add_prefix_space": True},
         post_processor={"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0], "trim_offsets": True, "add_prefix_space": True}, decoder=BYTE_LEVEL_DEC)
    case("model", "BPE", "dropout 0.0", "bytelevel", pre_tokenizer=BYTE_LEVEL_PRE, decoder=BYTE_LEVEL_DEC, options={"dropout": 0.0})
    case("model", "BPE", "unk_token, fuse_unk false", "bpe-char", normalizer={"type": "NFKC"}, pre_tokenizer={"type": "Whitespace"}, decoder={"type": "Fuse"})
    case("model", "BPE", "unk_token, fuse_unk true", "bpe-char", normalizer={"type": "NFKC"}, pre_tokenizer={"type": "Whitespace"}, decoder={"type": "Fuse"}, options={"fuse_unk": True})
    case("model", "BPE", "unk_token null (unknown characters dropped)", "bpe-char", normalizer={"type": "NFKC"}, pre_tokenizer={"type": "Whitespace"}, options={"unk_token": None})
    case("model", "BPE", "continuing_subword_prefix ##", "bpe-prefix", normalizer={"type": "NFKC"}, pre_tokenizer={"type": "Whitespace"}, decoder=WORDPIECE_DEC)
    case("model", "BPE", "end_of_word_suffix </w>", "bpe-suffix", normalizer={"type": "NFKC"}, pre_tokenizer={"type": "Whitespace"}, decoder={"type": "BPEDecoder", "suffix": "</w>"})
    case("model", "BPE", "byte_fallback (Llama 2 pipeline: Prepend and Replace, no pre-tokenizer)", "bpe-byte-fallback",
         normalizer={"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
         post_processor=template([tok("<s>"), tok(None, sequence="A")], [tok("<s>"), tok(None, sequence="A"), tok("<s>", type_id=1), tok(None, sequence="B", type_id=1)], {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}),
         decoder=LLAMA_DECODER)
    case("model", "BPE", "ignore_merges false (Llama-3 split, whole-word tokens the merges cannot reach)", "bytelevel-words", pre_tokenizer={"type": "Sequence", "pretokenizers": [split(LLAMA3_PATTERN, "Isolated"), BYTES_AFTER]}, decoder=BYTE_LEVEL_DEC)
    case("model", "BPE", "ignore_merges true (same vocabulary)", "bytelevel-words", pre_tokenizer={"type": "Sequence", "pretokenizers": [split(LLAMA3_PATTERN, "Isolated"), BYTES_AFTER]}, decoder=BYTE_LEVEL_DEC, options={"ignore_merges": True})
    case("model", "Unigram", "Metaspace (XLM-R-like pipeline)", "unigram", normalizer={"type": "NFKC"},
         pre_tokenizer={"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, METASPACE]}, decoder=METASPACE,
         post_processor=template([tok("<s>"), tok(None, sequence="A"), tok("</s>")], [tok("<s>"), tok(None, sequence="A"), tok("</s>"), tok("</s>"), tok(None, sequence="B"), tok("</s>")],
                                 {"<s>": {"id": "<s>", "ids": [0], "tokens": ["<s>"]}, "</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]}}))
    case("model", "Unigram", "byte_fallback", "unigram-byte-fallback", normalizer={"type": "NFKC"}, pre_tokenizer=METASPACE, decoder=LLAMA_DECODER)
    case("model", "WordLevel", "WordLevel", "wordlevel", normalizer={"type": "Lowercase"}, pre_tokenizer={"type": "Whitespace"}, decoder={"type": "WordPiece", "prefix": "##", "cleanup": False})

    # post-processors
    bert_template = template([tok("[CLS]"), tok(None, sequence="A"), tok("[SEP]")], [tok("[CLS]"), tok(None, sequence="A"), tok("[SEP]"), tok(None, sequence="B", type_id=1), tok("[SEP]", type_id=1)],
                             {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}, "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}})
    wp = dict(normalizer=BERT_NORM, pre_tokenizer={"type": "BertPreTokenizer"}, decoder=WORDPIECE_DEC)
    case("post_processor", "BertProcessing", "BertProcessing", "wordpiece", post_processor={"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]}, **wp)
    case("post_processor", "TemplateProcessing", "BERT template", "wordpiece", post_processor=bert_template, **wp)
    case("post_processor", "TemplateProcessing", "multi-id special token, type ids 1 and 2, sequences without specials between",
         "wordpiece", post_processor=template([tok("[X]", type_id=1), tok(None, sequence="A", type_id=1)], [tok(None, sequence="A", type_id=0), tok(None, sequence="B", type_id=2), tok("[X]", type_id=2)],
                                              {"[X]": {"id": "[X]", "ids": [2, 4, 3], "tokens": ["[CLS]", "[MASK]", "[SEP]"]}}), **wp)
    bl = dict(pre_tokenizer={**BYTE_LEVEL_PRE, "add_prefix_space": True}, decoder=BYTE_LEVEL_DEC)
    case("post_processor", "RobertaProcessing", "trim_offsets true, add_prefix_space true", "bytelevel", post_processor={"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0], "trim_offsets": True, "add_prefix_space": True}, **bl)
    case("post_processor", "RobertaProcessing", "trim_offsets false, add_prefix_space false", "bytelevel", post_processor={"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0], "trim_offsets": False, "add_prefix_space": False}, **bl)
    case("post_processor", "ByteLevel", "ByteLevel", "bytelevel", post_processor={"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True}, **bl)
    case("post_processor", "Sequence", "Sequence[ByteLevel, TemplateProcessing] (Llama 3)", "bytelevel", post_processor={"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
        template([tok("<s>"), tok(None, sequence="A")], [tok("<s>"), tok(None, sequence="A"), tok("<s>", type_id=1), tok(None, sequence="B", type_id=1)], {"<s>": {"id": "<s>", "ids": [0], "tokens": ["<s>"]}})]}, **bl)
    case("post_processor", "Sequence", "Sequence[RobertaProcessing, ByteLevel]", "bytelevel", post_processor={"type": "Sequence", "processors": [
        {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0], "trim_offsets": True, "add_prefix_space": True},
        {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}]}, **bl)

    # decoders
    case("decoder", "WordPiece", "cleanup false", "wordpiece", normalizer=BERT_NORM, pre_tokenizer={"type": "BertPreTokenizer"}, decoder={**WORDPIECE_DEC, "cleanup": False})
    case("decoder", "CTC", "cleanup true", "ctc", normalizer={"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "Replace", "pattern": {"String": " "}, "content": "|"}]},
         pre_tokenizer={"type": "FixedLength", "length": 1}, decoder={"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": True})
    case("decoder", "CTC", "cleanup false", "ctc", normalizer={"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "Replace", "pattern": {"String": " "}, "content": "|"}]},
         pre_tokenizer={"type": "FixedLength", "length": 1}, decoder={"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": False})
    uni = dict(normalizer={"type": "NFKC"}, pre_tokenizer=METASPACE)
    case("decoder", "Replace", "Regex ▁+ to a space", "unigram", decoder={"type": "Replace", "pattern": {"Regex": "▁+"}, "content": " "}, **uni)
    case("decoder", "Strip", "content ▁, start 1, stop 0", "unigram", decoder={"type": "Strip", "content": "▁", "start": 1, "stop": 0}, **uni)
    case("decoder", "Fuse", "Fuse", "unigram", decoder={"type": "Fuse"}, **uni)
    case("decoder", "ByteFallback", "ByteFallback alone", "unigram-byte-fallback", decoder={"type": "ByteFallback"}, **uni)
    case("decoder", "Sequence", "Sequence[Strip, Metaspace]", "unigram", decoder={"type": "Sequence", "decoders": [{"type": "Strip", "content": "s", "start": 0, "stop": 1}, METASPACE]}, **uni)
    case("decoder", "none", "no decoder (tokens joined by spaces)", "wordlevel", normalizer={"type": "Lowercase"}, pre_tokenizer={"type": "Whitespace"})

    # added tokens: lstrip, rstrip, single_word, normalized
    added = [dict(a) for a in ADDED_FLAGS]
    case("added_tokens", "AddedToken", "lstrip, rstrip, single_word, normalized flags", "bytelevel", normalizer={"type": "Lowercase"}, pre_tokenizer=BYTE_LEVEL_PRE, decoder=BYTE_LEVEL_DEC, added="bytelevel-flags")
    return out


ADDED_FLAGS = []  # filled in main() (ids depend on the learned vocabulary)

REFUSED = [
    ("model", "BPE dropout 0.1 (merges sampled at random)", {"model": "bytelevel", "model_options": {"dropout": 0.1}}),
    ("normalizer", "Precompiled with an empty charsmap", {"normalizer": {"type": "Precompiled", "precompiled_charsmap": ""}}),
    ("normalizer", "an unknown normalizer type", {"normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Unheard"}]}}),
    ("pre_tokenizer", "an unknown pre-tokenizer type", {"pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, {"type": "Unheard"}]}}),
    ("post_processor", "an unknown post-processor type", {"post_processor": {"type": "Unheard"}}),
    ("decoder", "an unknown decoder type", {"decoder": {"type": "Sequence", "decoders": [{"type": "Unheard"}]}}),
    ("pre_tokenizer", "Metaspace with a replacement of two characters", {"pre_tokenizer": {**METASPACE, "replacement": "▁▁"}}),
    ("pre_tokenizer", "Split with an unknown behavior", {"pre_tokenizer": split(" ", "Sideways", regex=False)}),
    ("model", "WordPiece with unk_token null", {"model": "wordpiece", "model_options": {"unk_token": None}}),
]


def build(spec, models, added):
    model = spec["model"]
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added[spec["added_tokens"]],
            "normalizer": spec["normalizer"], "pre_tokenizer": spec["pre_tokenizer"], "post_processor": spec["post_processor"],
            "decoder": spec["decoder"], "model": {**models[model], **spec.get("model_options", {})}}


def run(tokenizer_json, texts, pairs, with_types):
    t = Tokenizer.from_str(json.dumps(tokenizer_json))
    ids, decoded, types = [], [], []
    for text in texts:
        enc = t.encode(text)
        ids.append(enc.ids)
        types.append(enc.type_ids)
        d = t.decode(enc.ids, skip_special_tokens=True)
        decoded.append(None if d == text else d)
    pair_out = []
    for a, b in pairs:
        enc = t.encode(a, b)
        pair_out.append([enc.ids, enc.type_ids])
    result = {"ids": ids, "decoded": decoded, "pairs": pair_out}
    if with_types:
        result["type_ids"] = types
    return result


def main():
    texts, pairs, train = load_texts()
    charsmap = json.loads((FIXTURES / "families" / "xlm-roberta" / "tokenizer.json").read_text())["normalizer"]["precompiled_charsmap"]
    models, added = build_models(train)
    vocab = models["bytelevel"]["vocab"]
    g = "Ġ"
    for content, flags in [("<mask>", {"lstrip": True}), ("<s>", {"rstrip": True}), (f"is", {"single_word": True, "special": False, "normalized": True}),
                           ("WORLD", {"normalized": True, "special": False}), ("Test", {"normalized": False, "special": False})]:
        token_id = vocab.get(content, vocab.get(g + content))
        if token_id is None:
            token_id = len(vocab) + len(ADDED_FLAGS)
        ADDED_FLAGS.append({"id": token_id, "content": content, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True, **flags})
    added["bytelevel-flags"] = [a for a in added["bytelevel"] if a["content"] not in {"<mask>", "<s>"}] + ADDED_FLAGS
    all_cases = cases(models, charsmap)
    out_cases = []
    for c in all_cases:
        tj = build(c["tokenizer"], models, added)
        result = run(tj, texts, pairs, c["component"] == "post_processor")
        again = run(tj, texts, pairs, c["component"] == "post_processor")
        assert result == again, c["name"]
        out_cases.append({**c, **result})
        print(f"{c['component']:>14} {c['type']:<18} {c['name'][:60]:<60} {sum(len(i) for i in result['ids'])} ids")
    refused = []
    for component, name, spec in REFUSED:
        full = {"normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": None, "model": "wordlevel", **spec}
        full["added_tokens"] = full["model"]
        try:
            t = Tokenizer.from_str(json.dumps(build(full, models, added)))
            samples = {tuple(t.encode("abababab the transformers embedding").ids) for _ in range(20)}
            python = f"loads; {len(samples)} different id lists for one text in 20 encodes"
        except BaseException as error:  # pyo3 panics are BaseException
            python = "refuses to load: " + str(error).split("\n")[0][:160]
        refused.append({"component": component, "name": name, "tokenizer": full, "python": python})
        print(f"refused {name}: python {python}")
    payload = {"generator": GENERATOR, "tokenizers": tokenizers.__version__, "texts": texts, "pairs": pairs, "models": models, "added_tokens": added,
               "cases": out_cases, "refused": refused}
    OUT.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {OUT.relative_to(HERE.parent.parent)}: {len(out_cases)} cases x {len(texts)} texts + {len(pairs)} pairs, {len(refused)} refused, {OUT.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
