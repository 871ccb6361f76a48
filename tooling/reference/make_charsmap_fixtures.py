"""Writes fixtures/charsmap.json: reference outputs of the Rust `tokenizers` Precompiled normalizer
(spm_precompiled: darts-clone trie over UTF-8 + grapheme-cluster walk) for SentencePiece charsmaps.

Run from the repository root with the reference virtual environment (tokenizers; sentencepiece is optional):

    .venv-ref/bin/python tooling/reference/make_charsmap_fixtures.py

Charsmaps: the one in fixtures/families/xlm-roberta/tokenizer.json (compiled by make_family_fixtures.py), and,
when sentencepiece is importable, SentencePiece's built-in "nmt_nfkc" (what XLM-R and most multilingual models
ship), taken from the normalizer_spec of a tiny model trained here. Only one real built-in map is kept (its
blob alone is ~320 KB of base64); nmt_nfkc_cf is checked here and its agreement with nmt_nfkc on the texts
is printed, but it is not written. Every `normalized` is tokenizers.normalizers.Precompiled(blob).normalize_str.
Texts are fixed lists plus seeded random strings, so the output is reproducible.
"""
import base64
import io
import json
import random
from pathlib import Path

import tokenizers
from tokenizers import normalizers

HERE = Path(__file__).resolve().parent
OUT = HERE / "fixtures" / "charsmap.json"

FIXED = [
    # ASCII, controls, whitespace
    "", "a", "Hello, world!", "The quick brown fox jumps over the lazy dog.", "".join(chr(c) for c in range(0x20, 0x7F)),
    "a\tb\nc\r\nd\re\x0bf\x0cg", "\r\n", "\n\r", "line1\r\nline2\r\n\r\nline3", "".join(chr(c) for c in range(0x00, 0x20)) + "\x7f",
    "a\x00b", "\x00", "x\x80\x85\x8f\x9f\xa0y", "  leading and trailing  ", "many     spaces\t\ttabs",
    "a\u00a0b", "a\u3000b\u3000", "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a", "\u202f\u205f\u1680x",
    "\u2028\u2029", "\u2581word \u2581", "bad \ufffd char", "soft\u00adhyphen",
    # zero-width and format characters
    "a\u200bb", "a\u200cb", "a\u200db", "a\u200eb", "a\u200fb", "\ufeffstart", "mid\ufeffdle", "a\u2060b", "a\u034fb", "\u200b\u200c\u200d\u200e\u200f\ufeff",
    "\u202a\u202b\u202c\u202d\u202e", "\u2066\u2067\u2068\u2069", "a\u180eb", "\u061c\u200e",
    # Latin, composed and decomposed
    "café", "cafe\u0301", "Ångström", "A\u030angstro\u0308m", "naïve nai\u0308ve", "ñ n\u0303 N\u0303", "Ǆ ǅ ǆ ǈ ǋ", "Straße ẞ", "İstanbul ı i\u0307",
    "\u212b \u2126 \u212a", "ĳ Ĳ ŉ ǰ ſ ſt", "Tiếng Việt", "Tie\u0302\u0301ng Vie\u0323\u0302t", "e\u0301\u0302\u0303\u0304", "a" + "".join(chr(c) for c in range(0x300, 0x30A)),
    "e\u0301\u0327", "Z\u0324\u0354\u0367\u0311\u0313a\u0308\u0356\u032d\u0308\u0307l\u036e\u0312\u036bg\u030c\u0317\u035a\u031ao\u0319\u0314\u036e\u0307\u0350\u0307",
    "\u1e31\u0323", "o\u0328\u0304", "\u01eb\u0304", "x\u0301", "\u0301", "\u0301\u0301\u0301", "A\u0301\u0301", "ǖ u\u0308\u0304",
    # full-width, half-width, small and vertical forms
    "ＡＢＣ１２３", "ｈｅｌｌｏ　ｗｏｒｌｄ", "～", "a～b", "wave\uff5e\uff5e", "〜", "！？（）［］｛｝", "＄￥￡￠￢￤", "ｰ ﾟ ﾞ", "﹏ ﹐﹑﹒", "︐︑︒ ︵︶", "Ａ\u0301", "ａ\u0308",
    # ligatures, super/subscripts, fractions, letterlike, numbers
    "ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ", "ﬁ\u0301", "x² y³ ¹ ⁰ ⁱ ⁿ", "½ ¼ ¾ ⅓ ⅞ ⅟ ↉", "H₂O CO₂ ₊₋₌", "㎏ ㎞ ㎡ ㏈ ㍱", "℃ ℉ № ™ ℠ ℡ ℀ ℅", "… ‥ ‼ ⁇ ⁈",
    "Ⅻ ⅻ Ⅰ Ⅳ ⅿ Ↄ", "① ⑳ ㉑ ㊿ ⓐ Ⓐ ⑴ ⒈ ⓿", "①\u0301", "㈱ ㍿ ㋿ ㊀ ㈠", "Ⓒ © ® ℗", "µ μ", "ℝ ℕ ℤ ℂ ℌ", "′ ″ ‴ ⁗",
    # math alphanumerics
    "𝐀𝐁𝐂 𝑎𝑏𝑐 𝟎𝟏𝟐", "𝔄𝔅 𝕬 𝖆 𝚊 𝛂𝛃", "𝐀\u0301",
    # Greek, Cyrillic, Armenian
    "Ελληνικά ΐ ϓ ϔ", "ά α\u0301", "Русский й и\u0306", "ё е\u0308 Ё", "Ѷ ѷ", "Հայերեն և ﬓ",
    # Hangul
    "한국어", "\u1112\u1161\u11ab\u1100\u116e\u11a8", "ㄱㄴㄷ ㅏㅑ", "ﾡﾢﾣ ￂ", "\u1100\u1161", "한\u0300", "\u115f\u1160", "㉠ ㈀ ㉮",
    # Japanese
    "ｶﾞｷﾞｸﾞｹﾞｺﾞ", "ﾊﾟﾋﾟﾌﾟ", "ｱｲｳｴｵ ｧｨｩ", "ガ カ\u3099", "ｶ\uff9e", "ｶ\uff9e\u0301", "日本語のテキスト", "㌀ ㍻ ㋐", "ゟ ヿ", "は\u309a",
    # CJK compatibility
    "\uf900\uf901\ufa0e\ufa10\ufa6d", "\U0002f800\U0002f801\U0002fa1d", "⼀⼁⼂", "⺟ ⻳", "中文字符", "葛\U000e0100 邊\U000e0101", "\U00020000\U0002a700",
    # Arabic, Hebrew
    "ﻻ ﷲ ﷺ ﷻ", "ﺍﻟﻌﺮﺑﻴﺔ", "العربية", "ﰀ ﱞ", "\u0600\u0661\u0662", "شَدَّة", "שָׁלוֹם", "ﬠ ﬡ \ufb1d \ufb2a", "ﭐ ﭑ",
    # Indic, Thai, others
    "हिन्दी", "क्षत्रिय", "क्\u200dष", "नमस्ते", "\u0958 क\u093c", "ভাষা য়", "தமிழ்", "ഹ\u0d4eമ", "ภาษาไทย", "\u0e33 น้ำ", "ພາສາລາວ \u0eb3", "བོད་སྐད \u0f77",
    "ខ្មែរ", "ქართული", "አማርኛ",
    # emoji
    "👨\u200d👩\u200d👧\u200d👦", "👩🏽\u200d💻", "👍🏻👍🏿 👍", "🇯🇵🇺🇸🇩🇪", "🇦", "🇦🇧🇨", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "1\ufe0f\u20e3 #\ufe0f\u20e3 *\ufe0f\u20e3", "1\u20e3", "❤\ufe0f ❤", "☺\ufe0e ☺\ufe0f", "🏳\ufe0f\u200d🌈", "😀😃😄", "a\ufe0f", "\ufe00\ufe0f", "🫩 🫆 🪾",
    # long mixed
    "Hello ＷＯＲＬＤ！ café cafe\u0301 ﬁne ½ Ⅻ ① 한국어 ｶﾞ 👨\u200d👩\u200d👧 🇯🇵 a\u200bb 𝐀 \u3000end",
    "The year ２０２４ — “quotes” ‘single’ «guillemets» ‹›   ellipsis… dash – — ‐ ‑ ‒ ― ⁓",
    " ".join(["mixed", "текст", "文本", "नमस्ते", "ﺍﻟﻌﺮﺑﻴﺔ", "ｶﾀｶﾅ", "㍻", "ℌ", "①②③", "ﬃ"]) * 3,
    # long stretches of joining characters (the JS side segments them in windows of 256 UTF-16 units)
    "a\u0301" * 300, "🇯🇵a\u0301🇺" * 50, "x\u0308\u200d👨\u200d👩\u200d👧 ©\ufe0f" * 30, "\u0600a\u0301" * 100, "e\u0301\r\n" * 60,
    "Tie\u0302\u0301ng Vie\u0323\u0302t co\u0301 da\u0302\u0301u. " * 8, "ｶﾞｷﾞ" * 100 + "Ａ\u0301" * 100,
]

# (start, end) code point ranges for the random strings: many scripts, symbols, compatibility and combining blocks.
BLOCKS = [
    (0x20, 0x7F), (0x80, 0x100), (0x100, 0x250), (0x250, 0x2B0), (0x2B0, 0x300), (0x300, 0x370), (0x370, 0x400), (0x400, 0x530),
    (0x530, 0x590), (0x590, 0x600), (0x600, 0x700), (0x900, 0x980), (0x980, 0xA00), (0xB80, 0xC00), (0xD00, 0xD80), (0xE00, 0xE80),
    (0xE80, 0xF00), (0xF00, 0x1000), (0x10A0, 0x1100), (0x1100, 0x1200), (0x1200, 0x1380), (0x1780, 0x1800), (0x1800, 0x18B0),
    (0x1AB0, 0x1B00), (0x1D00, 0x1DC0), (0x1DC0, 0x1E00), (0x1E00, 0x1F00), (0x1F00, 0x2000), (0x2000, 0x2070), (0x2070, 0x20A0),
    (0x20A0, 0x20D0), (0x20D0, 0x2100), (0x2100, 0x2150), (0x2150, 0x2190), (0x2190, 0x2200), (0x2200, 0x2300), (0x2460, 0x2500),
    (0x2500, 0x2600), (0x2700, 0x27C0), (0x2C00, 0x2C60), (0x2D30, 0x2D80), (0x2E80, 0x2F00), (0x2F00, 0x2FE0), (0x3000, 0x3040),
    (0x3040, 0x30A0), (0x30A0, 0x3100), (0x3100, 0x3130), (0x3130, 0x3190), (0x3190, 0x3200), (0x3200, 0x3300), (0x3300, 0x3400),
    (0x4E00, 0xA000), (0xA000, 0xA4D0), (0xA960, 0xA980), (0xAC00, 0xD7A4), (0xD7B0, 0xD800), (0xE000, 0xE100), (0xF900, 0xFB00),
    (0xFB00, 0xFB50), (0xFB50, 0xFE00), (0xFE00, 0xFE10), (0xFE10, 0xFE20), (0xFE20, 0xFE30), (0xFE30, 0xFE50), (0xFE50, 0xFE70),
    (0xFE70, 0xFF00), (0xFF00, 0xFFF0), (0xFFF0, 0x10000), (0x10000, 0x10080), (0x10400, 0x10450), (0x1D400, 0x1D800),
    (0x1EE00, 0x1EF00), (0x1F100, 0x1F200), (0x1F200, 0x1F300), (0x1F300, 0x1F650), (0x1F900, 0x1FA00), (0x1FB00, 0x1FC00),
    (0x20000, 0x2A6E0), (0x2F800, 0x2FA20), (0xE0000, 0xE0080), (0xE0100, 0xE01F0), (0xF0000, 0xF0100),
]
COMBINING = [(0x300, 0x370), (0x1AB0, 0x1B00), (0x1DC0, 0x1E00), (0x20D0, 0x2100), (0xFE20, 0xFE30), (0xFE00, 0xFE10), (0x3099, 0x309B), (0xFF9E, 0xFFA0), (0x200C, 0x200E)]


def random_texts(rng, count):
    texts = []
    for _ in range(count):
        blocks = rng.sample(BLOCKS, rng.randint(1, 3))
        chars = []
        for _ in range(rng.randint(1, 16)):
            lo, hi = rng.choice(blocks)
            chars.append(chr(rng.randrange(lo, hi)))
            while rng.random() < 0.25:
                lo, hi = rng.choice(COMBINING)
                chars.append(chr(rng.randrange(lo, hi)))
            if rng.random() < 0.1:
                chars.append(rng.choice([" ", "\u200d", "\t", "\r\n", "\u3000"]))
        texts.append("".join(chars))
    return texts


def mapped_texts(normalizer, rng, count, width=24):
    """Strings of code points the charsmap changes on their own (a sample of the trie's single-character keys)."""
    mapped = [chr(cp) for cp in range(1, 0x110000) if not 0xD800 <= cp <= 0xDFFF and normalizer.normalize_str(chr(cp)) != chr(cp)]
    sample = sorted(rng.sample(mapped, min(len(mapped), count * width)))
    return [" ".join(sample[i:i + width]) for i in range(0, len(sample), width)], len(mapped)


def charsmap_from_tokenizer_json(path):
    def find(node):
        if isinstance(node, dict):
            if node.get("type") == "Precompiled":
                return node["precompiled_charsmap"]
            for child in node.get("normalizers") or []:
                found = find(child)
                if found:
                    return found
        return None

    return base64.b64decode(find(json.loads(path.read_text())["normalizer"]))


def sentencepiece_charsmap(rule):
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as pb

    corpus = [f"a tiny corpus line {i} with a few words: alpha beta gamma delta" for i in range(100)]
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(corpus), model_writer=model, vocab_size=50, normalization_rule_name=rule, minloglevel=2)
    proto = pb.ModelProto()
    proto.ParseFromString(model.getvalue())
    assert proto.normalizer_spec.name == rule
    return proto.normalizer_spec.precompiled_charsmap


def entry(name, blob, texts, rng):
    normalizer = normalizers.Precompiled(blob)
    extra, n_mapped = mapped_texts(normalizer, rng, 12)
    cases = [{"text": t, "normalized": normalizer.normalize_str(t)} for t in texts + extra]
    changed = sum(c["text"] != c["normalized"] for c in cases)
    print(f"{name}: {len(blob)} bytes, {n_mapped} single code points mapped, {len(cases)} cases ({changed} changed)")
    return {"name": name, "precompiled_charsmap": base64.b64encode(blob).decode("ascii"), "cases": cases}


def main():
    print(f"tokenizers {tokenizers.__version__}")
    rng = random.Random(20240611)
    texts = FIXED + random_texts(rng, 90)
    assert len(set(texts)) == len(texts) >= 150, len(texts)
    out = [entry("xlm-roberta-fixture", charsmap_from_tokenizer_json(HERE / "fixtures/families/xlm-roberta/tokenizer.json"), texts, rng)]
    try:
        import sentencepiece
    except ImportError:
        print("sentencepiece is not installed: the built-in nmt_nfkc charsmap is left out")
    else:
        print(f"sentencepiece {sentencepiece.__version__}")
        nfkc = sentencepiece_charsmap("nmt_nfkc")
        out.append(entry("sentencepiece-nmt_nfkc", nfkc, texts, rng))
        cf = normalizers.Precompiled(sentencepiece_charsmap("nmt_nfkc_cf"))
        same = sum(cf.normalize_str(t) == normalizers.Precompiled(nfkc).normalize_str(t) for t in texts)
        print(f"nmt_nfkc_cf (not written) agrees with nmt_nfkc on {same} / {len(texts)} texts")
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
