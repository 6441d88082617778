"""The secret scan's pre-checks change no finding: a differential test and its mutations.

Two oracles, on one large varied corpus (the labelled secret corpus, the bench's adversarial
inputs, facts of the bench corpus, witnesses for every pre-check and seeded random texts that
mix key prefixes, token runs, base64 and hex, CJK, URLs with credentials, assignments, PEM
blocks, look-alikes and invisible characters):

- the secrets package as it was before the pre-checks, read from git at ``BEFORE`` into a
  package of its own (skipped when git or that commit is not at hand);
- the scan as it is with every pre-check forced on (``_unfiltered``).

Then each mutation breaks one condition (a needle, a character, a run length, an offset) and
the scan must find less than the oracle on the corpus: every condition is needed.
"""

from __future__ import annotations

import importlib.util
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import secrets_corpus as corpus
from secrets_random_texts import random_texts

from context_center.engine.gate.secrets import (
    assignments,
    find_sensitive,
    normalise,
    obfuscation,
    prefilter,
    statements,
    tokens,
    values,
)

ROOT = Path(__file__).resolve().parents[3]
BEFORE = "6974358"  # main before the pre-checks
# Rules changed since BEFORE, applied to its source too, so only the pre-checks are compared:
# (file, the text at BEFORE, the text now).
LATER_RULES = [
    (
        "statements.py",
        '_CJK_VERB = r"(?:改成了|换成了|设置为|设置成|就是|改为|改成|换成|变成|设为|是|为)"',
        '_CJK_VERB = r"(?:改成了|换成了|设置为|设置成|用的是|就是|改为|改成|换成|变成|设为|使用|采用|是|为|用)"',
    ),
    # pw, pwd and pass as keys, PIN before a Chinese verb, a stated value's "!" and "?" kept
    (
        "statements.py",
        "pass(?:word|wd|phrase|code)s?+|pin|",
        "pass(?:word|wd|phrase|code)?+s?+|pwd?+|pin|",
    ),
    (
        "statements.py",
        '_STATEMENT_NEEDLES = ("pass", "pin", "key", "token", "secret", "credential")',
        '_STATEMENT_NEEDLES = ("pass", "pw", "pin", "key", "token", "secret", "credential")',
    ),
    (
        "statements.py",
        '("key", "api key", "access key")',
        '("key", "api key", "access key", "pin")',
    ),
    ("statements.py", '.rstrip(_TRAILING + "!?")', ".rstrip(_TRAILING)"),
    (
        "values.py",
        '_KEY_WORDS = ("SECRET", "TOKEN", "PASSWORD", "PASSWD", "_PWD", "-PWD")',
        '_KEY_WORDS = ("SECRET", "TOKEN", "PASSWORD", "PASSWD", "_PWD", "-PWD")\n'
        '_PW_WORDS = frozenset({"PW", "PWD"})\n_SHELL_PWD = frozenset({"PWD", "OLDPWD"})',
    ),
    (
        "values.py",
        '    return "PASS" in upper and any(w in _PASS_WORDS for w in key_words(key))',
        '    if "PASS" in upper and any(w in _PASS_WORDS for w in key_words(key)):\n'
        "        return True\n"
        '    return "PW" in upper and key not in _SHELL_PWD and '
        "any(w in _PW_WORDS for w in key_words(key))",
    ),
]
_PACKAGE = "app/context_center/engine/gate/secrets"


def _now_source(name: str, start: str, end: str) -> str:
    """The text of the secrets package's ``name`` now, from the line starting ``start`` up to
    the one starting ``end`` (a rule added later, given to BEFORE's source as it is)."""
    text = (ROOT / _PACKAGE / name).read_text(encoding="utf-8")
    at = text.index(start)
    return text[at : text.index(end, at)]


_STATED_BEFORE = _now_source("statements.py", "_USE_WORDS = ", "def statements(")
LATER_RULES += [
    # "… db: X", "was changed to X", "remains X", "-> X", "use X as the password", "密码X"
    (
        "statements.py",
        '_VERBS = frozenset({"is", "was", "are", "were", "is:", "was:", "to", "be"})',
        _now_source("statements.py", "_VERBS = ", "_FILLER_START = ").rstrip(),
    ),
    (
        "statements.py",
        '_SKIP_AFTER_VERB = frozenset({"set", "to", "now", "still", "currently", "just", "simply"})',
        _now_source("statements.py", "_SKIP_AFTER_VERB = ", "_QUOTES = ").rstrip(),
    ),
    (
        "statements.py",
        "        if lw in _VERBS:\n",
        _now_source("statements.py", "        if (lw in _VERBS and not", "            j = i + 1"),
    ),
    (
        "statements.py",
        "CJK_PASSWORD_SPACED = re.compile(",
        'CJK_PASSWORD_ATTACHED = re.compile(r"(?:密码|口令)(?P<value>[A-Za-z0-9][!-~]*+)")\n'
        "CJK_PASSWORD_SPACED = re.compile(",
    ),
    (
        "statements.py",
        "(CJK_STATEMENT, ASCII_KEY_CJK_VERB, CJK_PASSWORD_SPACED)",
        "(CJK_STATEMENT, ASCII_KEY_CJK_VERB, CJK_PASSWORD_SPACED, CJK_PASSWORD_ATTACHED)",
    ),
    ("statements.py", "def statements(text: str)", _STATED_BEFORE + "def statements(text: str)"),
    (
        "statements.py",
        "            found = _stated_after(text, m)\n",
        "            found = _stated_after(text, m) or _stated_before(text, m)\n",
    ),
    # a URL password with an unescaped #, /, ? or @ ("postgres://app:Zx9#@db")
    (
        "tokens.py",
        '        yield k.URL_CREDENTIALS, m.start("userinfo"), m.end("userinfo")\n',
        '        yield k.URL_CREDENTIALS, m.start("userinfo"), m.end("userinfo")\n'
        "    yield from _loose_url_passwords(text)\n\n\n"
        + _now_source("tokens.py", "URL_USER = ", "def _remote_target").replace(
            "lazy_compile(", "re.compile("
        ),
    ),
    # a subscript is code (``pw = m["pw"]``, ``token = data[0]``)
    (
        "values.py",
        '    r"[\\[{(]"\n)\n_IDENTIFIER',
        _now_source("values.py", '    r"[A-Za-z_][A-Za-z0-9_]*+(?:', "_IDENTIFIER") + "_IDENTIFIER",
    ),
    # an sk-/rk- key has a generated part: hyphenated words are names
    (
        "tokens.py",
        '        for m in pattern.finditer(text):\n            if "value" in pattern.groupindex:',
        "        for m in pattern.finditer(text):\n"
        "            if kind == k.API_KEY and not _random_key(m.group()):\n"
        "                continue\n"
        '            if "value" in pattern.groupindex:',
    ),
    # settings that name a credential's property: tokenizer, token_encoding, password_scheme
    (
        "values.py",
        '        *("HINT", "LABEL", "POLICY", "STORE", "MANAGER", "SCOPE", "SCOPES", "ISSUER"),\n',
        '        *("HINT", "LABEL", "POLICY", "STORE", "MANAGER", "SCOPE", "SCOPES", "ISSUER"),\n'
        '        *("ENCODING", "STORAGE", "ENCRYPTION", "SCHEME", "SCHEMES", "HASHING", "CIPHER"),\n',
    ),
    (
        "values.py",
        "def key_is_secret(key: str) -> bool:\n    upper = key.upper()\n",
        'def key_is_secret(key: str) -> bool:\n    upper = key.upper().replace("TOKENIZER", "")\n',
    ),
    # algorithm names with digits describe (argon2, pbkdf2, blake2b, crc32, sm4)
    (
        "values.py",
        '    r"(?:hs|rs|es|sha|md|aes|rsa|ed|utf|base|http|oauth|tls|ssl)[0-9][0-9\\-]*+\\w*+",',
        '    r"(?:hs|rs|es|sha|md|aes|rsa|ed|utf|base|http|oauth|tls|ssl|argon|pbkdf|blake|crc|sm)"'
        '\n    r"[0-9][0-9\\-]*+\\w*+",',
    ),
    # a sentence about the Authorization header is no header ("Bearer $TOKEN is a placeholder")
    (
        "assignments.py",
        "        if not _header_placeholder(whole):\n",
        "        if not _header_placeholder(whole) and not _header_prose(whole):\n",
    ),
    (
        "assignments.py",
        "def _header(text: str, m: re.Match[str], start: int)",
        _now_source("assignments.py", "_SCHEMES = ", "def _header(text")
        + "def _header(text: str, m: re.Match[str], start: int)",
    ),
    # a token glued to a word by - or _ ("deploy-glpat-…")
    (
        "tokens.py",
        "    yield from _plugin_tokens(text)\n\n\ndef bearer_and_jwt",
        "    yield from _glued_tokens(text)\n    yield from _aws_pairs(text)\n"
        "    yield from _plugin_tokens(text)\n\n\n"
        + _now_source("tokens.py", "_GLUED = ", "def bearer_and_jwt").replace(
            "lazy_compile(", "re.compile("
        )
        + "def bearer_and_jwt",
    ),
]

Found = list[tuple[str, int, int]]


def _found(scan: Callable[[str], list[Any]], text: str) -> Found:
    return [(s.kind, s.start, s.end) for s in scan(text)]


# --------------------------------------------------------------------------- the corpus


def _p(*parts: str) -> str:
    return "".join(parts)  # prefixes assembled, so no literal token sits in this file


GHP = _p("gh", "p_")
# One witness per condition: a text with a finding that only that condition lets through.
WITNESSES = {
    "colon": "host.internal:5432:appdb:alice:Xy7zQ2",
    "equals": "masterauth = Xy7zQ2",
    "colon_assignment": "masterauth: Xy7zQ2abc",
    "angle": "<masterauth>Xy7zQ2abc</masterauth>",
    "percent": "master%5Fauth%3DXy7zQ2abc",
    "at": "alice@example.org",
    "backslash": r"\x64\x62\x5f\x70\x77\x64\x3d\x58\x79\x37\x7a\x51\x32",
    "newline": _p(GHP, "AbCdEfGh\nIjKlMnOpQrSt"),
    "carriage_return": _p(GHP, "AbCdEfGh\rIjKlMnOpQrSt"),
    "plus": _p('"', GHP, 'AbCdEfGh" + "IjKlMnOpQrSt"'),
    "pass": "The staging password is hunter2",
    "pin": "The PIN is 4821",
    "key": "the signing key is Xy7zQ2abc9",
    "token": "the token is Xy7zQ2abc9",
    "secret": "the secret is Xy7zQ2abc9",
    "credential": "the credentials are Xy7zQ2abc9",
    "bearer": "Bearer ab~cd~ef~gh~ij~kl~mn",
    "xox": _p("xo", "xb-12-ab"),
    "aws": 'aws pw "' + "ı" * 40 + '"',
    "discord": "M" + "٣" * 23 + ".ab٣٣٣٣." + "٣" * 27,
    "square": _p("sq", "0csp-") + "ab\\" * 14 + "a",
    "jwt": "eyJhIjowfQ.MA.",
    "at_dot": "alice at example dot com",
    "command": "mysql -u root -pHunter22",
    "at_bracket": "alice (at) example (dot) com",
    "token_run": _p(GHP, "A1" * 18),
    "spaced": " ".join(_p(GHP, "AbCdEfGhIjKlMnOpQrStUvWx")),
    "spaced_tight": _p("s k", " - A b C d EfGhIjKl"),  # seven letters spaced, no more
    "hex_bytes": "64 62 5f 70 77 64 3d 58 79 37 7a 51 32",
    "cjk_key": "密码是 hunter2",
    "cjk_verb": "db_pwd 是 Xy7zQ2abc",
    "cjk_pin": "PIN 是 Xy7zQ2abc",
    "cjk_compact": "master_auth 是 Xy7zQ2abc",
    "offset": "encryption_key is Xy7zQ2abc9",
    "cjk_plain": "令牌：Xy7zQ2abc",
    "dotless_i": "the token here; the pın is 4821 。",
}


def _bench_texts() -> list[str]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import bench_secrets
    from bench.corpus import generate

    out = [make(300) for make in bench_secrets.INPUTS.values()]
    for fact in generate(400):
        out += [fact.title, fact.description, fact.body[:300]]
        out.append("\n".join((fact.title, fact.description, fact.body)))
    return out


def _corpus() -> list[str]:
    texts = list(WITNESSES.values())
    texts += [c.text for c in corpus.CASES + corpus.HELD_OUT]
    texts += _bench_texts()
    texts += list(random_texts(2500))
    return list(dict.fromkeys(texts))


TEXTS = _corpus()


# --------------------------------------------------------------------------- the oracles


def _reset_memos() -> None:
    prefilter._last_run = ("", False)
    prefilter._last_short = ("", False)
    assignments._last_runs = ("", ())


@contextmanager
def _unfiltered() -> Iterator[None]:
    """Every pre-check answers "maybe": the scan runs every pattern it has."""
    with pytest.MonkeyPatch.context() as mp:
        for name in (
            "may_hold",
            "may_hold_token",
            "may_command",
            "may_join",
            "may_space_out",
            "may_hex_bytes",
            "may_cjk_key",
            "may_key_cjk_verb",
            "may_secret_key",
            "token_run",
            "short_words",
        ):
            mp.setattr(prefilter, name, lambda _text: True)
        mp.setattr(
            statements, "statement_keys", lambda text, _l: statements.STATEMENT_KEY.finditer(text)
        )
        mp.setattr(normalise, "_PLAIN", re.compile("(?!)"))
        mp.setattr(normalise, "_NOT_PLAIN", re.compile("(?s:.)"))
        _reset_memos()
        try:
            yield
        finally:
            _reset_memos()


def _load_before(into: Path) -> ModuleType | None:
    """The secrets package at ``BEFORE``, as the package ``cc_secrets_before``."""
    try:
        listing = subprocess.run(
            ["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{BEFORE}:{_PACKAGE}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    package = into / "cc_secrets_before"
    package.mkdir()
    for name in listing:
        if name.endswith(".py"):
            source = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{BEFORE}:{_PACKAGE}/{name}"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            source = source.replace("context_center.engine.gate.secrets", "cc_secrets_before")
            for file, then, now in LATER_RULES:
                if file == name:
                    assert then in source, (file, then)
                    source = source.replace(then, now)
            (package / name).write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(
        "cc_secrets_before", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cc_secrets_before"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    module = _load_before(tmp_path_factory.mktemp("before"))
    if module is None:
        pytest.skip(f"git or commit {BEFORE} is not at hand")
    yield module
    for name in [n for n in sys.modules if n.startswith("cc_secrets_before")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def unfiltered() -> dict[str, Found]:
    with _unfiltered():
        return {text: _found(find_sensitive, text) for text in TEXTS}


def test_corpus_is_large_and_varied(unfiltered: dict[str, Found]) -> None:
    with_findings = [t for t, f in unfiltered.items() if f]
    kinds = {k for f in unfiltered.values() for k, _, _ in f}
    assert len(TEXTS) >= 4000 and len(with_findings) >= 1500, (len(TEXTS), len(with_findings))
    assert len(kinds) >= 25, sorted(kinds)
    assert sum(not t.isascii() for t in TEXTS) >= 1000  # Chinese, look-alikes, invisibles


def test_the_same_findings_as_before_the_prechecks(before: ModuleType) -> None:
    diff = [t for t in TEXTS if _found(find_sensitive, t) != _found(before.find_sensitive, t)]
    assert not diff, diff[:5]


def test_the_same_findings_as_with_every_precheck_off(unfiltered: dict[str, Found]) -> None:
    _reset_memos()
    diff = [t for t in TEXTS if _found(find_sensitive, t) != unfiltered[t]]
    assert not diff, diff[:5]


def test_every_witness_has_a_finding(unfiltered: dict[str, Found]) -> None:
    assert [name for name, text in WITNESSES.items() if not unfiltered[text]] == []


def test_most_ordinary_fact_titles_skip_the_patterns() -> None:
    from bench.corpus import generate

    titles = [normalise.base_view(f.title).text for f in generate(500)]
    skipped = sum(not prefilter.may_hold(t) for t in titles)
    assert skipped >= len(titles) // 2, skipped


# --------------------------------------------------------------------------- mutations


class _Shadow:
    """A module with some of its names replaced (for one importer only)."""

    def __init__(self, module: ModuleType, **names: object) -> None:
        self._module, self._names = module, names

    def __getattr__(self, name: str) -> object:
        return self._names[name] if name in self._names else getattr(self._module, name)


def _without(chars: str) -> re.Pattern[str]:
    kept = "".join(c for c in ":=<%@\\\r\n+" if c not in chars)
    return re.compile("[" + re.escape(kept) + "]")


def _drop(name: str, item: object) -> tuple[str, object]:
    return name, tuple(x for x in getattr(prefilter, name) if x != item)


# Each: (the module, the attribute, its broken value). Character tests are broken wherever the
# character is tested (the trigger class and the token pre-check).
MUTATIONS: dict[str, list[tuple[ModuleType, str, object]]] = {
    "no ':'": [
        (prefilter, "_TRIGGER_CHARS", _without(":")),
        (prefilter, "may_hold_token", lambda t: prefilter.token_run(t)),
        (prefilter, "may_hex_bytes", prefilter.short_words),
    ],
    **{
        f"no {c!r}": [(prefilter, "_TRIGGER_CHARS", _without(c))]
        for c in ("=", "<", "%", "@", "\r", "\n", "+")
    },
    "no '\\\\'": [
        (prefilter, "_TRIGGER_CHARS", _without("\\")),
        (prefilter, "may_hold_token", lambda t: prefilter.token_run(t) or ":" in t),
    ],
    **{
        f"no lower needle {n!r}": [(prefilter, *_drop("_LOWER_NEEDLES", n))]
        for n in ("pass", "pin", "key", "token", "secret", "credential", "bearer")
    },
    "no xox": [
        (prefilter, *_drop("_LOWER_NEEDLES", "xox")),
        (prefilter, "may_hold_token", lambda t: prefilter.token_run(t) or ":" in t or "\\" in t),
    ],
    "no aws": [
        (prefilter, *_drop("_LOWER_NEEDLES", "aws")),
        (prefilter, "may_hold_token", lambda t: prefilter.token_run(t) or "xox" in t.lower()),
    ],
    "no Discord pre-check": [(prefilter, "_DISCORD_START", re.compile("(?!)"))],
    "no eyJ": [(prefilter, "_CASE_NEEDLES", ())],
    "no ' at '": [(prefilter, "_WORDED_EMAIL", (" at ", " dot ", "\x00"))],
    "no command mysql": [(prefilter, *_drop("COMMAND_NEEDLES", "mysql"))],
    "no bracketed at": [(prefilter, "AT_BRACKET", re.compile("(?!)"))],
    "token run of 16": [(prefilter, "TOKEN_RUN", re.compile(r"[A-Za-z0-9+/=_.\-]{16}"))],
    "words of 16 before the run": [
        (
            prefilter,
            "token_run",
            lambda t: (
                max(map(len, t.split()), default=0) >= 16
                and prefilter.TOKEN_RUN.search(t) is not None
            ),
        )
    ],
    "seven short words": [(prefilter, "SHORT_WORDS", re.compile(r" (?:[!-~][!-~]? ){7}"))],
    "short words of one": [(prefilter, "SHORT_WORDS", re.compile(r" (?:[!-~] ){6}"))],
    "no 密": [(prefilter, "_CJK_KEY_CHARS", "令秘私凭授")],
    "no 是": [(prefilter, "_CJK_VERB_CHARS", "为改换设变")],
    "no compact pw": [(prefilter, *_drop("COMPACT_NEEDLES", "pw"))],
    "no compact pin": [(prefilter, *_drop("COMPACT_NEEDLES", "pin"))],
    "no compact masterauth": [(prefilter, *_drop("COMPACT_NEEDLES", "masterauth"))],
    "no offset 11": [
        (statements, "NEEDLE_OFFSETS", {**statements.NEEDLE_OFFSETS, "key": (3, 4, 6, 7, 8, 10)})
    ],
    "no join on \\n": [(prefilter, "may_join", lambda t: "\r" in t or "+" in t)],
    "no spaced letters": [(prefilter, "may_space_out", lambda t: False)],
    "dotless i read as lower-cased": [(statements, "_ODD_CASE", "")],
    "Slack needs three digits": [
        (tokens, "_SLACK_MAYBE", re.compile(r"xox[abposr]-\d\d\d|hooks\.slack\.com", re.I))
    ],
    "value runs cut short": [
        (
            obfuscation,
            "value_runs",
            lambda t: tuple((a, b - 1) for a, b in assignments.value_runs(t)),
        )
    ],
    "no own needle hf_": [
        (tokens, "_OWN_NEEDLES", tuple(n for n in tokens._OWN_NEEDLES if n != "hf_"))
    ],
    "no compact key for spaced values": [
        (assignments, "prefilter", _Shadow(prefilter, may_secret_key=lambda t: "secret" in t))
    ],
    "plain full-width colon": [
        (normalise, "_PLAIN", re.compile("[\\x00-\\x7f\\u4e00-\\u9fff\\uff1a]*+")),
    ],
}


@pytest.mark.parametrize("name", MUTATIONS)
def test_breaking_a_condition_loses_findings(name: str, unfiltered: dict[str, Found]) -> None:
    with pytest.MonkeyPatch.context() as mp:
        for module, attribute, value in MUTATIONS[name]:
            mp.setattr(module, attribute, value)
        _reset_memos()
        try:
            # the witnesses first (TEXTS starts with them): the first loss settles it
            lost = next((t for t in TEXTS if _found(find_sensitive, t) != unfiltered[t]), None)
        finally:
            _reset_memos()
    assert lost is not None, f"the corpus does not notice the mutation {name}"


# --------------------------------------------------------------------------- the pieces


def test_plain_characters_stay_as_they_are() -> None:
    plain = [chr(c) for c in range(0x110000) if normalise._PLAIN.fullmatch(chr(c))]
    assert 20_000 < len(plain) < 30_000
    look_alikes = set(normalise._LOOK_ALIKE_CHARS)
    changed = [ch for ch in plain if normalise._char_replacement(ch) != ch or ch in look_alikes]
    assert changed == []
    assert normalise._NOT_PLAIN.findall("".join(plain)) == []


def _statement_phrases() -> list[str]:
    """Every phrase ``STATEMENT_KEY`` matches, in lower case (the language is finite)."""
    seps = (" ", "_", "-")
    phrases = [f"pass{w}{s}" for w in ("", "word", "wd", "phrase", "code") for s in ("", "s")]
    phrases += ["pw", "pwd", "pin", "credential", "credentials"]
    heads = [f"secret{s}access" for s in seps]
    heads += ["access", "secret", "private", "api", "signing", "encryption", "license"]
    phrases += [f"{h}{s}key" for h in heads for s in (*seps, "")]
    phrases += ["token"] + [
        f"{h}{s}token"
        for h in ("access", "auth", "api", "bearer", "session", "refresh", "bot")
        for s in seps
    ]
    phrases += ["secret"] + [f"client{s}secret" for s in seps]
    return phrases


def test_statement_key_offsets_are_derived_from_every_phrase() -> None:
    """For every phrase the pattern matches: where it starts, counted back from its first
    needle, is in ``NEEDLE_OFFSETS``; and every offset there is needed by some phrase."""
    phrases = _statement_phrases()
    assert all(statements.STATEMENT_KEY.fullmatch(p) for p in phrases)
    derived: dict[str, set[int]] = {}
    for phrase in phrases:
        at, needle = min((phrase.find(n), n) for n in statements._STATEMENT_NEEDLES if n in phrase)
        derived.setdefault(needle, set()).add(at)
    assert {n: tuple(sorted(d)) for n, d in derived.items()} == statements.NEEDLE_OFFSETS
    # the pattern matches nothing else: a few near misses
    for other in ("key", "passwd_", "tokens", "api__key", "secretkey_", "pins", "access  key"):
        assert statements.STATEMENT_KEY.fullmatch(other) is None, other


def test_dense_needles_fall_back_to_the_plain_scan() -> None:
    keys = "key=" * 500 + "the signing key is Xy7zQ2abc9 "
    commands = "mysql -pX1 " * 300 + "a mysql -pHunter22"
    assert statements._needle_starts(keys.lower()) is None
    assert statements._command_starts(commands) is None
    got = [m.span() for m in statements.statement_keys(keys, keys.lower())]
    assert got == [m.span() for m in statements.STATEMENT_KEY.finditer(keys)]
    for text in (keys, commands):
        with _unfiltered():
            expected = _found(find_sensitive, text)
        assert _found(find_sensitive, text) == expected and expected


def test_statement_keys_are_the_patterns_matches() -> None:
    for text in TEXTS:
        lower = text.lower()
        got = [m.span() for m in statements.statement_keys(text, lower)]
        assert got == [m.span() for m in statements.STATEMENT_KEY.finditer(text)], text


def test_odd_case_characters_are_all_there_are() -> None:
    """The characters an ASCII letter matches ignoring case that ``str.lower`` maps to one
    other character are exactly ``_ODD_CASE`` (``İ`` lower-cases to two, ``K`` to ``k``)."""
    any_letter = re.compile("[a-z]", re.IGNORECASE)
    odd = set()
    for ch in (chr(c) for c in range(0x80, 0x110000)):
        if any_letter.fullmatch(ch) and len(ch.lower()) == 1:
            odd |= {
                ch
                for letter in string.ascii_lowercase
                if re.fullmatch(letter, ch, re.IGNORECASE) and ch.lower() != letter
            }
    assert odd == set(statements._ODD_CASE)


def test_compact_needles_cover_every_secret_key_word() -> None:
    words = (*values._KEY_WORDS, *values._COMPACT_KEY_WORDS, *values._PASS_WORDS, "KEY")
    for word in words:
        compact = word.lower().replace("_", "").replace("-", "")
        assert any(n in compact for n in prefilter.COMPACT_NEEDLES), word
