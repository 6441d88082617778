"""The write gate's secret detection: corpus figures, then time on adversarial inputs.

First the labelled corpus (tests/engine/gate/secrets_corpus.py): the catch rate per class of
everyday credentials, the obfuscated rate and the false-positive rate on benign developer
strings, against the targets (>= 97 %, >= 75 %, <= 2 %). Then ``find_sensitive`` on adversarial
inputs of 100 KB and 1 MB: linear matching shows a ratio of about 10 between the two sizes; a
quadratic pattern would show about 100. Before those, the cost on ordinary text: microseconds
per ``find_sensitive`` call on the facts of ``bench.corpus`` (titles, snippet sources, whole
fact texts as recall's secret match reads them) and how many the pre-check (``prefilter``)
turns away. Run: ``.venv/bin/python bench/bench_secrets.py`` (add ``--corpus`` for the
figures only, ``--facts`` for the ordinary-text timings only, ``--misses`` to list what is
missed, ``--plugins`` to time each pattern on its own as well).
"""

from __future__ import annotations

import base64
import re
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from context_center.engine.gate.secrets import OWN_PATTERNS, find_sensitive, plugin_patterns

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine" / "gate"))
import secrets_corpus as corpus

ROOT = Path(__file__).resolve().parents[1]

# name -> function of the target size in characters
INPUTS: dict[str, Callable[[int], str]] = {
    "a*n": lambda n: "a" * n,
    "@*n": lambda n: "@" * n,
    "a@ repeated": lambda n: "a@" * (n // 2),
    "a. then @": lambda n: "a." * (n // 2 - 1) + "@x",
    "x@a.a.a...": lambda n: "x@" + "a." * (n // 2 - 1),
    "Bearer + a*n": lambda n: "Bearer " + "a" * (n - 7),
    "Bearer repeated": lambda n: "Bearer " * (n // 7),
    "key= repeated": lambda n: "key=" * (n // 4),
    "password= repeated": lambda n: "password=" * (n // 9),
    "API_KEY run, no sep": lambda n: "API_KEY" * (n // 7),
    "token: + spaces": lambda n: "token:" + " " * (n - 6),
    "Authorization: repeated": lambda n: "Authorization: a " * (n // 17),
    "Cookie: a=b repeated": lambda n: "Cookie: a=b " * (n // 12),
    "eyJ*n": lambda n: "eyJ" * (n // 3),
    "eyJa. repeated": lambda n: "eyJa." * (n // 5),
    "ghp_ + a*n": lambda n: "ghp_" + "a" * (n - 4),
    "ghp_ token run": lambda n: ("ghp_" + "a" * 36) * (n // 40),
    "sk- repeated": lambda n: "sk-" * (n // 3),
    "xoxb-1- repeated": lambda n: "xoxb-" + "1-" * (n // 2 - 3),
    "xoxb- + digits": lambda n: ("xoxb-" + "1" * 20) * (n // 25),
    "AKIA*n": lambda n: "AKIA" * (n // 4),
    "aws key repeated": lambda n: "aws key " * (n // 8),
    "BEGIN header no dashes": lambda n: "BEGIN RSA PRIVATE KEY " * (n // 22),
    "PEM BEGIN no END": lambda n: "-----BEGIN RSA PRIVATE KEY-----" * (n // 31),
    "-----BEGIN A A A...": lambda n: "-----BEGIN " + "A " * (n // 2 - 6),
    "a:// repeated": lambda n: "a://" * (n // 4),
    "http://u: + a*n": lambda n: "http://u:" + "a" * (n - 9),
    "glpat- repeated": lambda n: "glpat-" * (n // 6),
    "AIza + a*n": lambda n: "AIza" + "a" * (n - 4),
    "sk_live_ repeated": lambda n: "sk_live_" * (n // 8),
    "npm_ repeated": lambda n: "npm_" * (n // 4),
    "Bearer eyJ repeated": lambda n: "Bearer eyJ " * (n // 11),
    "API_KEY + space repeated": lambda n: "API_KEY " * (n // 8),
    "key + long values": lambda n: ("token " + "a1" * 20 + " ") * (n // 47),
    "words then long run": lambda n: "a " * (n // 4) + "b1" * (n // 4),
    "密钥 + space repeated": lambda n: "密钥 " * (n // 3),
    "full-width Ａ*n": lambda n: "Ａ" * n,
    "zero-width split": lambda n: "a\u200b" * (n // 2),
    "grapheme-joiner split": lambda n: "a\u034f" * (n // 2),
    "variation selectors": lambda n: "a\ufe0f\U000e0100" * (n // 3),
    "tag characters": lambda n: "a\U000e0041" * (n // 2),
    "Hangul filler": lambda n: "a\u3164" * (n // 2),
    "Chinese 中*n": lambda n: "中" * n,
    "密码: repeated": lambda n: "密码:" * (n // 3),
    "A A A ... (spaced letters)": lambda n: "A " * (n // 2),
    "aa aa ... (spaced hex)": lambda n: "aa " * (n // 3),
    "aa:aa:... then g": lambda n: "aa:" * (n // 3 - 1) + "g",
    "%41 repeated": lambda n: "%41" * (n // 3),
    "%4 repeated": lambda n: "%4" * (n // 2),
    "base64 of text": lambda n: base64.b64encode(b"a=b " * (n // 5)).decode()[:n],
    "hex of text": lambda n: (b"x" * (n // 2)).hex(),
    "quote + newline joins": lambda n: '"a"\n' * (n // 4),
    "a at a dot ...": lambda n: "a at " + "a dot " * (n // 6),
    "x (at) x (dot) ...": lambda n: "x (at) " + "x (dot) " * (n // 8),
    "password is repeated": lambda n: "password is " * (n // 12),
    "the password of a b c": lambda n: "the password of " + "a " * (n // 2 - 8),
    "密码是 repeated": lambda n: "密码是 " * (n // 4),
    "mysql -p repeated": lambda n: "mysql -p " * (n // 9),
    "mysql + long args": lambda n: "mysql " + "-x " * (n // 3 - 2),
    "curl -u repeated": lambda n: "curl -u a " * (n // 10),
    "host:12:db:u: repeated": lambda n: "h:12:d:u:" * (n // 9),
    "login a password repeated": lambda n: "login a password " * (n // 17),
    "<a> repeated": lambda n: "<a>" * (n // 3),
    "<a>x</b> repeated": lambda n: "<a>x</b>" * (n // 8),
    'key="a" value= repeated': lambda n: 'key="a" value=' * (n // 14),
    "${ repeated": lambda n: "${a:" * (n // 4),
    "a=a=a= ...": lambda n: "a=" * (n // 2),
    "?a=1&b=2& ...": lambda n: "?" + "a=1&" * (n // 4),
    "Cyrillic-Latin mix": lambda n: "аa" * (n // 2),
    "M + 25 chars (Discord)": lambda n: ("M" + "a" * 25) * (n // 26),
    "digits (Telegram)": lambda n: "1" * n,
    "spaces": lambda n: " " * n,
    "newlines": lambda n: "\n" * n,
}


def _time(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _all_matches(pattern: re.Pattern[str], text: str) -> int:
    return sum(1 for _ in pattern.finditer(text))


def print_corpus(misses: bool) -> None:
    figures = corpus.score(find_sensitive)
    print("labelled corpus (tests/engine/gate/secrets_corpus.py)")
    print(f"{'class':14} {'caught':>7} {'of':>4} {'rate':>7}")
    for cls in (*corpus.EVERYDAY_CLASSES, corpus.OBFUSCATED):
        caught, total = figures.per_class[cls]
        print(f"{cls:14} {caught:7} {total:4} {caught / total:7.1%}")
    benign = len(corpus.BENIGN_CASES)
    fps = len(figures.false_positives)
    everyday = sum(figures.per_class[c][1] for c in corpus.EVERYDAY_CLASSES)
    print(f"everyday credentials: {figures.everyday_rate:.1%} of {everyday} (target >= 97 %)")
    print(
        f"obfuscated: {figures.obfuscated_rate:.1%} of {len(corpus.OBFUSCATED_CASES)} "
        "(target >= 75 %)"
    )
    print(f"false positives: {figures.false_positive_rate:.1%} ({fps} of {benign}) (target <= 2 %)")
    held = corpus.score_cases(find_sensitive, corpus.HELD_OUT)
    first = corpus.HELD_OUT_FIRST_RUN
    print(
        "third batch (written before the detector ran on it): "
        + ", ".join(f"{g} {held[g][0]}/{held[g][1]} (first run {first[g]})" for g in held)
    )
    if misses:
        for case in figures.missed:
            print(f"  missed ({case.cls}): {case.text[:80]!r}")
        for case in figures.false_positives:
            print(f"  false positive: {case.text[:80]!r}")
    print()


def _per_text_us(texts: list[str], repeat: int = 5) -> float:
    return _time(lambda: [find_sensitive(t) for t in texts], repeat) / len(texts) * 1e6


def print_facts(n: int = 3000) -> None:
    """Microseconds per call on ordinary facts, and the share the pre-check turns away."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench.corpus import generate

    from context_center.engine.gate.secrets.normalise import base_view

    try:  # (absent from a tree before the pre-check: then no share is printed)
        from context_center.engine.gate.secrets.prefilter import may_hold
    except ImportError:
        may_hold = None

    facts = list(generate(n))
    kinds = {
        "title": [f.title for f in facts],
        "snippet source": [(f.description + " — " + f.body)[:300] for f in facts],
        "whole fact text": ["\n".join((f.title, f.description, f.body)) for f in facts],
    }
    print(f"ordinary text: {n:,} facts of bench.corpus (best of 5)")
    print(f"{'text':16} {'chars':>6} {'us/call':>8} {'skipped':>8}")
    for name, texts in kinds.items():
        chars = sum(map(len, texts)) / len(texts)
        skipped = (
            f"{sum(not may_hold(base_view(t).text) for t in texts) / len(texts):8.0%}"
            if may_hold is not None
            else f"{'-':>8}"
        )
        print(f"{name:16} {chars:6.0f} {_per_text_us(texts):8.1f} {skipped}")
    print()


def main() -> int:
    find_sensitive("warm up")  # loads the detect-secrets plugins
    if "--facts" in sys.argv:
        print_facts()
        return 0
    print_corpus("--misses" in sys.argv)
    if "--corpus" in sys.argv:
        return 0
    print_facts()
    small, large = 100_000, 1_000_000
    worst = 0.0
    ratios: list[float] = []
    print(f"{'input':28} {'100 KB (s)':>11} {'1 MB (s)':>10} {'ratio':>6}")
    for name, make in INPUTS.items():
        a, b = make(small), make(large)
        ta = _time(partial(find_sensitive, a))
        tb = _time(partial(find_sensitive, b))
        ratio = tb / ta if ta > 0 else float("nan")
        ratios.append(ratio)
        worst = max(worst, tb)
        print(f"{name:28} {ta:11.4f} {tb:10.4f} {ratio:6.1f}")
    print(f"slowest 1 MB input: {worst:.3f} s; ratios {min(ratios):.1f}-{max(ratios):.1f}")
    if "--plugins" in sys.argv:
        print("\nper pattern, worst input at 1 MB:")
        texts = [make(large) for make in INPUTS.values()]
        for pattern in (*OWN_PATTERNS, *plugin_patterns()):
            t = max(_time(partial(_all_matches, pattern, s), repeat=1) for s in texts)
            print(f"{t:8.4f}  {pattern.pattern[:70]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
