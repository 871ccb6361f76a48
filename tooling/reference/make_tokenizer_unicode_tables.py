"""Writes packages/tokenizers/src/unicode/rust-unicode-tables.ts: the character classes the Rust `tokenizers`
library takes from frozen Unicode tables, read off the library itself, code point by code point.

Run from the repository root with the reference virtual environment (tokenizers 0.23):

    .venv-ref/bin/python tooling/reference/make_tokenizer_unicode_tables.py

Most character classes of the Rust library come from Rust's own (current) Unicode data, which JavaScript's
`\\p{...}` matches. Four come from crates frozen at an old Unicode version, so characters assigned since then
are classed differently from `\\p{...}` (for example U+0890, a format character since Unicode 14, survives
BertNormalizer's clean_text; U+2E43, a dash since Unicode 10, is not punctuation to BertPreTokenizer):

  control      BertNormalizer clean_text removes it (with NUL and U+FFFD): unicode_categories' is_other, less
               tab, line feed and carriage return. Read as BertNormalizer(clean_text only).normalize_str(c) == "".
  punctuation  BertPreTokenizer / Punctuation split on it: ASCII punctuation or unicode_categories'
               is_punctuation. Read as Punctuation().pre_tokenize_str("a" + c + "a") giving three pieces.
  nonspacing   BertNormalizer strip_accents drops it after NFD: unicode_categories' is_mark_nonspacing.
               Read as BertNormalizer(strip_accents only).normalize_str(c) == "" (c unchanged by NFD or
               decomposing into such marks only).
  combining    StripAccents drops it: unicode-normalization's is_combining_mark. Read as
               StripAccents().normalize_str(c) == "".
  scripts      UnicodeScripts' script of each code point (its own table, Hiragana and Katakana and U+30FC read
               as Han, the space as "Any"). Read from the pre-tokenizer: c is "Any" when
               pre_tokenize_str(c + "a") drops c; two code points share a script when pre_tokenize_str(x + y)
               keeps them in one piece. Scripts are numbered in order of first appearance; 0 is "Any".

Surrogates (U+D800-U+DFFF) cannot be in a Rust string and are left out of every class (scripts: "Any").
Each class is written as ranges: "start-end" or "start" in hex, comma-separated; scripts as "start:script"
runs (each run lasts until the next start). The output is deterministic.
"""
import time
from pathlib import Path

import tokenizers
from tokenizers import normalizers, pre_tokenizers

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "packages" / "tokenizers" / "src" / "unicode" / "rust-unicode-tables.ts"
CODE_POINTS = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def ranges(members):
    out, start, prev = [], None, None
    for c in members:
        if start is not None and c == prev + 1:
            prev = c
            continue
        if start is not None:
            out.append(f"{start:x}" if start == prev else f"{start:x}-{prev:x}")
        start = prev = c
    if start is not None:
        out.append(f"{start:x}" if start == prev else f"{start:x}-{prev:x}")
    return ",".join(out)


def script_runs():
    split = pre_tokenizers.UnicodeScripts().pre_tokenize_str
    representatives = []  # one character per script, in order of first appearance (script i + 1)
    runs, current = [], None
    previous_script, previous_char = None, None
    for c in range(0x110000):
        ch = chr(c)
        if 0xD800 <= c <= 0xDFFF:
            script = 0
        elif split(ch + "a") == [("a", (1, 2))]:
            script = 0  # "Any": dropped before the first scripted character
        elif previous_script and len(split(previous_char + ch)) == 1:
            script = previous_script
        else:
            script = next((i + 1 for i, r in enumerate(representatives) if len(split(r + ch)) == 1), None)
            if script is None:
                representatives.append(ch)
                script = len(representatives)
        if script and not 0xD800 <= c <= 0xDFFF:
            previous_script, previous_char = script, ch
        if script != current:
            runs.append(f"{c:x}:{script:x}")
            current = script
    return ",".join(runs), len(representatives)


def main():
    t0 = time.time()
    control_normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    nonspacing_normalizer = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False)
    combining_normalizer = normalizers.StripAccents()
    punctuation = pre_tokenizers.Punctuation()
    control = [c for c in CODE_POINTS if control_normalizer.normalize_str(chr(c)) == ""]
    punct = [c for c in CODE_POINTS if c != ord("a") and len(punctuation.pre_tokenize_str("a" + chr(c) + "a")) == 3]
    nonspacing = [c for c in CODE_POINTS if nonspacing_normalizer.normalize_str(chr(c)) == ""]
    combining = [c for c in CODE_POINTS if combining_normalizer.normalize_str(chr(c)) == ""]
    runs, script_count = script_runs()
    body = f"""// Generated by tooling/reference/make_tokenizer_unicode_tables.py from tokenizers {tokenizers.__version__}: do not edit.
// Character classes the Rust `tokenizers` library takes from frozen Unicode tables (see the script's docstring),
// read off the library code point by code point. Ranges are hex "start-end" or "start", comma-separated.

/** Removed by BertNormalizer's clean_text (besides NUL and U+FFFD): unicode_categories' is_other less \\t \\n \\r. */
export const CONTROL = '{ranges(control)}';

/** Split off by BertPreTokenizer and Punctuation: ASCII punctuation and unicode_categories' is_punctuation. */
export const PUNCTUATION = '{ranges(punct)}';

/** Dropped by BertNormalizer's strip_accents after NFD: unicode_categories' is_mark_nonspacing. */
export const NONSPACING_MARK = '{ranges(nonspacing)}';

/** Dropped by the StripAccents normalizer: unicode-normalization's is_combining_mark. */
export const COMBINING_MARK = '{ranges(combining)}';

/**
 * UnicodeScripts' script of every code point as runs "start:script" (hex; a run lasts until the next start):
 * {script_count} scripts numbered by first appearance, 0 = "Any" (the space and code points outside its table).
 */
export const SCRIPT_RUNS = '{runs}';
"""
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(body)
    print(f"wrote {OUT.relative_to(ROOT)}: control {len(control)}, punctuation {len(punct)}, nonspacing {len(nonspacing)}, "
          f"combining {len(combining)} code points, {script_count} scripts in {runs.count(',') + 1} runs ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
