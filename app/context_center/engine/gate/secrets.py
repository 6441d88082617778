"""Sensitive-content detection for the write gate and the window's highlighting.

``find_sensitive(text)`` returns every credential, secret, private key or email address found,
as spans into the ORIGINAL text; ``is_sensitive(text)`` says whether there is any.

Normalisation. Matching runs on a normalised copy: each character is NFKC-normalised on its own
(full-width ``ｇｈｐ＿`` becomes ``ghp_``, ``：`` becomes ``:``) and every invisible character is
dropped — each Default_Ignorable_Code_Point (``DEFAULT_IGNORABLE_RANGES``: zero-width spaces and
joiners, the soft hyphen, bidi controls, the combining grapheme joiner U+034F, Khmer and Mongolian
invisibles, the Hangul fillers, variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF, tag
characters U+E0000-U+E007F) and every other format character (category Cf) — so a key split by
an invisible character is still one key. An offset map from the normalised copy back to the
original keeps the spans correct for highlighting. Pure ASCII input (the common case) skips all
of this.

Linear time. Every pattern is written so that a match attempt can start only at the beginning of
a run (a negative look-behind on the run's own character class, or a literal prefix), and every
unbounded repeat is possessive (``++``/``*+``, Python 3.11), so an attempt never backtracks and
each character is examined a bounded number of times. ``bench/bench_secrets.py`` measures 100 KB
against 1 MB adversarial inputs; ``tests/engine/test_secrets.py`` checks the pattern structure.

What comes from detect-secrets (1.5), and why the rest does not:

- ``GitHubTokenDetector`` — ``gh[pousr]_`` + 36 characters: used as is. It has no
  ``github_pat_`` (fine-grained tokens), so that is ours.
- ``AWSKeyDetector`` — the access key id pattern (``AKIA``/``ASIA``/``ABIA``/``ACCA``/``A3T.``
  + 16) and the ``aws … key … "40 chars"`` secret key pattern: used as is (both are bounded).
- ``SlackDetector`` — ``xox[abposr]-`` with numeric middle segments and the webhook URL: used as
  is; tokens whose middle segments are not numeric are caught by our ``xox[baprs]-`` + 10 rule.
- ``PrivateKeyDetector`` — literal ``BEGIN … PRIVATE KEY`` headers: used to recognise a header,
  but it only finds the header line, not the block, and it misses ``BEGIN ENCRYPTED PRIVATE
  KEY`` (PKCS#8); our rule spans the block from ``-----BEGIN`` to its ``-----END …-----`` line.
- ``JwtTokenDetector`` — its validation (header and payload must decode to JSON) is used; its
  regex is not: ``eyJ[…]+\\.`` without a left boundary is quadratic on ``"eyJ" * n``, and its
  lazy tail ends the match before the signature, so the span would miss it.
- ``BasicAuthDetector`` — not used: it rejects passwords containing ``!$&'()*+,;=`` (common in
  real passwords), needs a non-empty user (``redis://:pw@host`` is missed) and does not
  report the user part.
- ``KeywordDetector`` — not used: it needs a file type to choose its rules, demands quotes for
  most, and knows neither ``TOKEN`` nor ``_PWD``/``-PWD`` nor Chinese keys.

Our own classes: key=value / key: value assignments (the key contains APIKEY, ACCESSKEY,
PRIVATEKEY — ignoring ``_``/``-``/``.`` — or SECRET, TOKEN, PASSWORD, PASSWD, ``_PWD``, ``-PWD``;
plain ``PWD`` and ``OLDPWD`` are not secrets; placeholders like ``$VAR``, ``<token>``, ``***``
or a type name are ignored; Chinese keys 密码/口令/密钥/私钥/令牌/凭据 too), the same keys
followed by whitespace and a value that looks generated (``AWS_SECRET_ACCESS_KEY wJalr…``:
20+ characters with letters and digits, see ``_looks_random``), ``Authorization:`` and
``Cookie:``/``Set-Cookie:`` headers, ``Bearer`` + 16 (or a JWT-shaped ``Bearer eyJ…`` of any
length), ``sk-``/``rk-`` + 12, ``github_pat_``, GitLab ``glpat-`` + 20, Google ``AIza`` + 35,
Stripe ``sk_live_``/``rk_live_``/``sk_test_``/``rk_test_`` + 16, npm ``npm_`` + 36, JWTs,
private key blocks, URLs with ``user:password@``, and email addresses (an ``scp``-style git
remote ``git@host:owner/repo`` is not an email).

Configuration is not a secret. A key=value whose value is a boolean or None-like literal
(``true``, ``no``, ``off``, ``null``, ``None``, ``~`` …) is a setting whatever the key. So is a
short number (at most 6 digits) unless the key names the credential itself: it ends with
PASSWORD, PASSWD, PWD, SECRET, TOKEN or KEY and has no qualifier word such as MIN, MAX,
LENGTH, COUNT, LIMIT or TTL. ``password_min_length=12``, ``maxPassword=8`` and
``secret_rotation_days=90`` are settings; ``PASSWORD=123456`` and ``api_key=123456`` are
reported, because all-digit passwords and PINs are real (a false alarm costs a person one
click; a missed PIN is a leak). Keys that name only a token keep their older, wider rule: up to
9 digits is a setting (``max_tokens: 4096``, ``TOKEN=8000``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

__all__ = [
    "DEFAULT_IGNORABLE_RANGES",
    "SensitiveSpan",
    "find_sensitive",
    "is_default_ignorable",
    "is_sensitive",
    "normalise_for_matching",
]


@dataclass(frozen=True, slots=True)
class SensitiveSpan:
    """One finding: ``text[start:end]`` of the ORIGINAL text is sensitive.

    ``kind`` is a stable code (part of the JSON contract); ``label`` is a short human
    description that never contains the secret itself.
    """

    kind: str
    start: int
    end: int
    label: str

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "start": self.start, "end": self.end, "label": self.label}


# Stable kind codes.
SECRET_ASSIGNMENT = "secret_assignment"
AUTHORIZATION_HEADER = "authorization_header"
COOKIE_HEADER = "cookie_header"
BEARER_TOKEN = "bearer_token"
API_KEY = "api_key"
GITHUB_TOKEN = "github_token"
SLACK_TOKEN = "slack_token"
AWS_ACCESS_KEY = "aws_access_key"
AWS_SECRET_KEY = "aws_secret_key"
GITLAB_TOKEN = "gitlab_token"
GOOGLE_API_KEY = "google_api_key"
STRIPE_KEY = "stripe_key"
NPM_TOKEN = "npm_token"
JWT = "jwt"
PRIVATE_KEY = "private_key"
URL_CREDENTIALS = "url_credentials"
EMAIL = "email"

KINDS: dict[str, str] = {
    SECRET_ASSIGNMENT: "secret assigned to a key, token or password name",
    AUTHORIZATION_HEADER: "Authorization header",
    COOKIE_HEADER: "Cookie header",
    BEARER_TOKEN: "bearer token",
    API_KEY: "API key (sk-/rk-)",
    GITHUB_TOKEN: "GitHub token",
    SLACK_TOKEN: "Slack token",
    AWS_ACCESS_KEY: "AWS access key id",
    AWS_SECRET_KEY: "AWS secret access key",
    GITLAB_TOKEN: "GitLab personal access token",
    GOOGLE_API_KEY: "Google API key",
    STRIPE_KEY: "Stripe secret or restricted key",
    NPM_TOKEN: "npm access token",
    JWT: "JSON Web Token",
    PRIVATE_KEY: "private key block",
    URL_CREDENTIALS: "user and password in a URL",
    EMAIL: "email address",
}

# --------------------------------------------------------------------------- normalisation

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 15.1) as
# inclusive ranges: code points a renderer shows as nothing. Python's ``unicodedata`` does not
# expose the property, and only some of these are category Cf: U+034F, U+17B4/5, U+180B-U+180D,
# U+180F and the variation selectors are Mn; the Hangul fillers U+115F, U+1160, U+3164, U+FFA0
# are Lo; U+2065, U+FFF0-U+FFF8 and most of U+E0000-U+E0FFF are unassigned.
DEFAULT_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong / jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, ZWNJ, ZWJ, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated formats
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFEFF, 0xFEFF),  # zero-width no-break space (BOM)
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tag characters U+E0000-U+E007F, variation selectors 17-256, unassigned
)
_IGNORABLE_STARTS = [lo for lo, _ in DEFAULT_IGNORABLE_RANGES]


def is_default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is a Default_Ignorable_Code_Point (invisible when rendered)."""
    cp = ord(ch)
    i = bisect_right(_IGNORABLE_STARTS, cp) - 1
    return i >= 0 and cp <= DEFAULT_IGNORABLE_RANGES[i][1]


def _invisible(ch: str) -> bool:
    return is_default_ignorable(ch) or unicodedata.category(ch) == "Cf"


def _char_replacement(ch: str) -> str:
    """What one character becomes in the matching copy ('' when it is dropped)."""
    if _invisible(ch):
        return ""
    rep = unicodedata.normalize("NFKC", ch)
    # NFKC can itself produce an invisible character (U+3164 HANGUL FILLER becomes U+1160).
    return "".join(c for c in rep if not _invisible(c))


def normalise_for_matching(text: str) -> tuple[str, list[int] | None]:
    """The matching copy of ``text`` and a map from its offsets to the original's.

    ``mapping[i]`` is the original index of normalised character ``i``; ``None`` means the
    copy is identical to the original (the map is the identity).
    """
    if text.isascii():
        return text, None
    replacements = {
        ch: rep for ch in set(text) if not ch.isascii() and (rep := _char_replacement(ch)) != ch
    }
    if not replacements:
        return text, None
    special = re.compile("[" + "".join(re.escape(ch) for ch in replacements) + "]")
    parts: list[str] = []
    mapping: list[int] = []
    pos = 0
    for m in special.finditer(text):
        start = m.start()
        if start > pos:  # an unchanged stretch maps one to one
            parts.append(text[pos:start])
            mapping.extend(range(pos, start))
        rep = replacements[m.group()]
        if rep:
            parts.append(rep)
            mapping.extend([start] * len(rep))
        pos = start + 1
    if pos < len(text):
        parts.append(text[pos:])
        mapping.extend(range(pos, len(text)))
    return "".join(parts), mapping


# --------------------------------------------------------------------------- our patterns

# Characters a key name is made of (Reasonix's rule) and its boundary.
_KEY = r"[A-Za-z0-9_.\-]"
_ASSIGNMENT = re.compile(
    rf"(?<!{_KEY})(?P<key>[A-Za-z_]{_KEY}*+)"
    r"[\"'\]]{0,2}+[ \t]*+(?P<sep>:=|=|:)[ \t]*+"
    r"(?P<q>[\"'`]?+)(?P<value>[^\s\"'`,;]++)"
)
# A header's value runs to the end of the line (or a closing quote).
_REST_OF_LINE = re.compile(r"[^\r\n\"'`]*+")
_CJK_KEY = r"(?:密码|口令|密钥|私钥|令牌|凭据|凭证|访问密钥)"
_CJK_ASSIGNMENT = re.compile(_CJK_KEY + r"[ \t]*+(?:[:=]|是|为)[ \t]*+[\"'`]?+(?P<value>[!-~]++)")
# A key and its value separated only by whitespace (``AWS_SECRET_ACCESS_KEY wJalr…``): the value
# must look random (``_looks_random``), so prose ("the API_KEY variable") stays out. The value
# is only looked at (a look-ahead), not consumed, so in ``export AWS_SECRET_ACCESS_KEY v`` the
# key is not swallowed as the value of ``export``.
_SPACED_VALUE = r"(?=(?P<value>[A-Za-z0-9+/][A-Za-z0-9+/=_.\-]{19,}+))"
_SPACED_ASSIGNMENT = re.compile(
    rf"(?<!{_KEY})(?P<key>[A-Za-z_]{_KEY}*+)[\"']?+[ \t]++[\"'`]?+" + _SPACED_VALUE
)
_CJK_SPACED_ASSIGNMENT = re.compile(_CJK_KEY + r"[ \t]++[\"'`]?+" + _SPACED_VALUE)
# Credential words a key may end with: then the key names the credential itself.
_CREDENTIAL_ENDINGS = ("PASSWORD", "PASSWD", "PWD", "SECRET", "TOKEN", "KEY")
# Words that make a key describe a property of a credential rather than name it.
_QUALIFIER_WORDS = frozenset(
    {
        *("MIN", "MINIMUM", "MAX", "MAXIMUM", "LEN", "LENGTH", "SIZE", "COUNT", "NUM", "NUMBER"),
        *("LIMIT", "TTL", "TIMEOUT", "EXPIRY", "EXPIRES", "AGE", "DAYS", "HOURS", "MINUTES"),
        *("SECONDS", "RETRIES", "ATTEMPTS", "ROUNDS", "BITS", "VERSION", "INDEX", "PORT"),
    }
)
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]++|(?<=[a-z0-9])(?=[A-Z])")
# A short number (at most 6 digits, optionally signed or with a decimal part).
_SHORT_NUMBER = re.compile(r"[+-]?+[0-9]{1,6}+(?:\.[0-9]{1,6}+)?+")
_COMPACT_KEY_WORDS = ("APIKEY", "ACCESSKEY", "PRIVATEKEY")
_KEY_WORDS = ("SECRET", "TOKEN", "PASSWORD", "PASSWD", "_PWD", "-PWD")
_PLACEHOLDER = re.compile(
    r"(?:\$\{?[A-Za-z_][A-Za-z0-9_]*+\}?|\$\(.*+|%[A-Za-z_][A-Za-z0-9_]*+%|<[^<>]*+>?|\{\{.*+|"
    r"[*xX.•]++|null|none|nil|true|false|yes|no|on|off|enabled|disabled|~|undefined|"
    r"str|string|int|bool|bytes|optional|any|"
    r"required|redacted|\[redacted\]|env|os\.environ.*+|process\.env.*+)",
    re.IGNORECASE,
)

# A bearer value of 16 characters or more, or a JWT-shaped one (``eyJ…``, case-sensitive) of
# any length.
_BEARER = re.compile(
    r"(?<![A-Za-z0-9_\-])bearer[ \t]++"
    r"(?P<value>(?-i:eyJ)[A-Za-z0-9._~+/=\-]++|[A-Za-z0-9._~+/=\-]{16,}+)",
    re.IGNORECASE,
)
_API_KEY = re.compile(r"(?<![A-Za-z0-9_\-])(?:sk|rk)-[A-Za-z0-9_\-]{12,}+")
_GITLAB_PAT = re.compile(r"(?<![A-Za-z0-9_\-])glpat-[A-Za-z0-9_\-]{20,}+")
_GOOGLE_API_KEY = re.compile(r"(?<![A-Za-z0-9_\-])AIza[A-Za-z0-9_\-]{35,}+")
_STRIPE_KEY = re.compile(r"(?<![A-Za-z0-9_\-])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}+")
_NPM_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])npm_[A-Za-z0-9]{36,}+")
_GITHUB_PAT = re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}+")
_GITHUB_LOOSE = re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9_]{20,}+")
_SLACK_LOOSE = re.compile(r"(?<![A-Za-z0-9_\-])xox[baprs]-[A-Za-z0-9\-]{10,}+")
_JWT = re.compile(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]++\.[A-Za-z0-9_\-]++\.[A-Za-z0-9_\-]*+")
_PEM_BEGIN = re.compile(
    r"-----BEGIN[ ]++(?:(?!PRIVATE )[A-Z0-9]++[ ]++)*+PRIVATE[ ]++KEY(?:[ ]++BLOCK)?+-----"
)
_PEM_END = re.compile(
    r"-----END[ ]++(?:(?!PRIVATE )[A-Z0-9]++[ ]++)*+PRIVATE[ ]++KEY(?:[ ]++BLOCK)?+-----"
)
_PUTTY = re.compile(r"(?<![A-Za-z0-9])PuTTY-User-Key-File-[0-9]++:")
_URL_CREDENTIALS = re.compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+://"
    r"(?P<userinfo>[^\s:/?#\[\]@]*+:[^\s/?#\[\]@]++)@"
)
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-])(?P<local>[A-Za-z0-9._%+\-]++)@"
    r"(?P<domain>[A-Za-z0-9\-]++(?:\.[A-Za-z0-9\-]++)++)"
)

_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_\-]*+")

# Every pattern written here; tests/engine/test_secrets.py walks their structure. Scanning
# patterns are searched for anywhere (each must start at a run boundary or a literal); anchored
# ones only ever match at a given position.
SCANNING_PATTERNS: tuple[re.Pattern[str], ...] = (
    _ASSIGNMENT,
    _CJK_ASSIGNMENT,
    _SPACED_ASSIGNMENT,
    _CJK_SPACED_ASSIGNMENT,
    _BEARER,
    _API_KEY,
    _GITLAB_PAT,
    _GOOGLE_API_KEY,
    _STRIPE_KEY,
    _NPM_TOKEN,
    _GITHUB_PAT,
    _GITHUB_LOOSE,
    _SLACK_LOOSE,
    _JWT,
    _PEM_BEGIN,
    _PEM_END,
    _PUTTY,
    _URL_CREDENTIALS,
    _EMAIL,
)
ANCHORED_PATTERNS: tuple[re.Pattern[str], ...] = (
    _PLACEHOLDER,
    _REST_OF_LINE,
    _TOKEN_CHARS,
    _SHORT_NUMBER,
    _WORD_SPLIT,
)
OWN_PATTERNS = SCANNING_PATTERNS + ANCHORED_PATTERNS


# --------------------------------------------------------------------------- detect-secrets


@dataclass(frozen=True)
class _Plugins:
    github: tuple[re.Pattern[str], ...]
    aws_key_id: re.Pattern[str]
    aws_secret: re.Pattern[str]
    slack: tuple[re.Pattern[str], ...]
    private_key_headers: tuple[re.Pattern[str], ...]
    jwt_valid: Callable[[str], bool]


@cache
def _plugins() -> _Plugins:
    """The detect-secrets patterns we reuse (imported lazily: it pulls in ``requests``)."""
    from detect_secrets.plugins.aws import AWSKeyDetector
    from detect_secrets.plugins.github_token import GitHubTokenDetector
    from detect_secrets.plugins.jwt import JwtTokenDetector
    from detect_secrets.plugins.private_key import PrivateKeyDetector
    from detect_secrets.plugins.slack import SlackDetector

    aws = tuple(AWSKeyDetector.denylist)
    return _Plugins(
        github=tuple(GitHubTokenDetector.denylist),
        aws_key_id=aws[0],
        aws_secret=aws[1],
        slack=tuple(SlackDetector.denylist),
        private_key_headers=tuple(PrivateKeyDetector.denylist),
        jwt_valid=JwtTokenDetector.is_formally_valid,
    )


def plugin_patterns() -> tuple[re.Pattern[str], ...]:
    """The detect-secrets regexes in use (for the bench and the tests)."""
    p = _plugins()
    return (*p.github, p.aws_key_id, p.aws_secret, *p.slack, *p.private_key_headers)


# --------------------------------------------------------------------------- detectors

_Raw = tuple[str, int, int]  # kind, start, end in the normalised text


def _key_is_secret(key: str) -> bool:
    upper = key.upper()
    compact = upper.replace("_", "").replace("-", "").replace(".", "")
    return any(w in compact for w in _COMPACT_KEY_WORDS) or any(w in upper for w in _KEY_WORDS)


def _only_token_key(key: str) -> bool:
    """The key names a token and nothing stronger (``max_tokens``, ``token_limit``)."""
    upper = key.upper()
    strong = upper.replace("TOKEN", "")
    return "TOKEN" in upper and not _key_is_secret(strong)


def _is_authorization_key(key: str) -> bool:
    lower = key.lower()
    return lower == "authorization" or lower.endswith(
        ("-authorization", "_authorization", ".authorization")
    )


def _is_placeholder(value: str) -> bool:
    return _PLACEHOLDER.fullmatch(value) is not None


def _names_credential(key: str) -> bool:
    """The key names the credential itself (``DB_PASSWORD``, ``apiKey``), not a property of it
    (``password_min_length``, ``max_secret_age``, ``tokens``)."""
    words = [w.upper() for w in _WORD_SPLIT.split(key) if w]
    if not words or any(w in _QUALIFIER_WORDS for w in words):
        return False
    return "".join(words).endswith(_CREDENTIAL_ENDINGS)


def _is_configuration(key: str, value: str) -> bool:
    """A short number under a key that does not name the credential is a setting:
    ``password_min_length=12``, ``max_tokens: 4096``. ``PASSWORD=123456`` stays a secret."""
    if value.isdigit() and len(value) <= 9 and _only_token_key(key):
        return True  # max_tokens: 4096, token_limit=8000
    return _SHORT_NUMBER.fullmatch(value) is not None and not _names_credential(key)


def _shannon_entropy(value: str) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _looks_random(value: str) -> bool:
    """A value that looks generated rather than written: 20+ characters, letters and digits,
    one unbroken stretch of 12+ between ``_``/``-``/``.``/``/``, at least 3 bits of entropy per
    character, and not a path or URL."""
    if len(value) < 20 or value.startswith(("/", ".", "~")) or "://" in value:
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if max(len(part) for part in re.split(r"[_.\-/]", value)) < 12:
        return False  # snake_case_words_2024, host/owner/repo2024/blob/main
    return _shannon_entropy(value) >= 3.0


def _assignments(text: str) -> Iterator[_Raw]:
    header_until = -1  # a header value covers the rest of its line; skip matches inside it
    for m in _ASSIGNMENT.finditer(text):
        if m.start() < header_until:
            continue
        key, value = m.group("key"), m.group("value")
        lower = key.lower()
        if _is_authorization_key(key) or (lower in ("cookie", "set-cookie") and m["sep"] == ":"):
            start = m.start("value")
            rest = _REST_OF_LINE.match(text, start)
            end = start + len(rest.group().rstrip()) if rest else m.end("value")
            header_until = end
            whole = text[start:end]
            if lower.endswith("authorization"):
                if not _is_placeholder(whole):
                    yield AUTHORIZATION_HEADER, start, end
            elif "=" in whole:  # name=value pairs; "cookie: yum" is prose
                yield COOKIE_HEADER, start, end
            continue
        value = value.rstrip(")]}")  # f(password: str) — the bracket closes the code
        if not value or not _key_is_secret(key) or _is_placeholder(value):
            continue
        core = value.rstrip(".)]}") or value  # "… max_password_age=90." ends a sentence
        if _is_placeholder(core) or _is_configuration(key, core):
            continue  # password_min_length=12 is a setting, not a credential
        yield SECRET_ASSIGNMENT, m.start("value"), m.start("value") + len(value)
    for m in _CJK_ASSIGNMENT.finditer(text):
        if not _is_placeholder(m.group("value")):
            yield SECRET_ASSIGNMENT, m.start("value"), m.end("value")
    for m in _SPACED_ASSIGNMENT.finditer(text):
        key, value = m.group("key"), m.group("value")
        if _key_is_secret(key) and _looks_random(value):
            aws = "AWS" in key.upper() and "SECRET" in key.upper() and len(value) == 40
            yield AWS_SECRET_KEY if aws else SECRET_ASSIGNMENT, m.start("value"), m.end("value")
    for m in _CJK_SPACED_ASSIGNMENT.finditer(text):
        if _looks_random(m.group("value")):
            yield SECRET_ASSIGNMENT, m.start("value"), m.end("value")


def _simple(text: str) -> Iterator[_Raw]:
    for m in _BEARER.finditer(text):
        yield BEARER_TOKEN, m.start("value"), m.end("value")
    for m in _API_KEY.finditer(text):
        yield API_KEY, m.start(), m.end()
    for kind, pattern in (
        (GITLAB_TOKEN, _GITLAB_PAT),
        (GOOGLE_API_KEY, _GOOGLE_API_KEY),
        (STRIPE_KEY, _STRIPE_KEY),
        (NPM_TOKEN, _NPM_TOKEN),
    ):
        for m in pattern.finditer(text):
            yield kind, m.start(), m.end()
    plugins = _plugins()
    for pattern in plugins.github:
        extended = -1
        for m in pattern.finditer(text):
            # Grow the fixed-length plugin match over the rest of its token (for highlighting);
            # consecutive matches in one run share the run's end, so it is scanned once.
            if m.end() > extended:
                run = _TOKEN_CHARS.match(text, m.end())
                extended = run.end() if run else m.end()
            yield GITHUB_TOKEN, m.start(), extended
    for pattern in (_GITHUB_PAT, _GITHUB_LOOSE):
        for m in pattern.finditer(text):
            yield GITHUB_TOKEN, m.start(), m.end()
    for pattern in (*plugins.slack, _SLACK_LOOSE):
        for m in pattern.finditer(text):
            yield SLACK_TOKEN, m.start(), m.end()
    for m in plugins.aws_key_id.finditer(text):
        yield AWS_ACCESS_KEY, m.start(), m.end()
    for m in plugins.aws_secret.finditer(text):
        yield AWS_SECRET_KEY, m.start(1), m.end(1)
    for m in _JWT.finditer(text):
        if plugins.jwt_valid(m.group().rstrip(".")):
            yield JWT, m.start(), m.end()


def _private_keys(text: str) -> Iterator[_Raw]:
    blocks: list[tuple[int, int]] = []
    for m in _PEM_BEGIN.finditer(text):
        if blocks and m.start() < blocks[-1][1]:
            continue
        end_match = _PEM_END.search(text, m.end())
        end = end_match.end() if end_match else len(text)
        blocks.append((m.start(), end))
        yield PRIVATE_KEY, m.start(), end
    # Headers detect-secrets knows that the block rule does not match (PuTTY, odd dashes):
    # reported from the header to the end of its line.
    for pattern in (*_plugins().private_key_headers, _PUTTY):
        block = 0
        line_end = -1
        for m in pattern.finditer(text):
            while block < len(blocks) and blocks[block][1] <= m.start():
                block += 1
            if block < len(blocks) and blocks[block][0] <= m.start():
                continue  # inside a block already reported
            if m.end() > line_end:
                found = text.find("\n", m.end())
                line_end = len(text) if found < 0 else found
            yield PRIVATE_KEY, m.start(), line_end


def _urls(text: str) -> Iterator[_Raw]:
    for m in _URL_CREDENTIALS.finditer(text):
        yield URL_CREDENTIALS, m.start("userinfo"), m.end("userinfo")


def _emails(text: str) -> Iterator[_Raw]:
    for m in _EMAIL.finditer(text):
        local, domain = m.group("local"), m.group("domain")
        tld = domain.rsplit(".", 1)[1]
        if not (len(tld) >= 2 and tld.isalpha()):
            continue
        if local.strip(".") != local or ".." in local:
            continue
        if local == "git" and text.startswith(":", m.end()):
            continue  # scp-style git remote: git@github.com:owner/repo.git
        yield EMAIL, m.start(), m.end()


_DETECTORS: tuple[Callable[[str], Iterator[_Raw]], ...] = (
    _private_keys,
    _assignments,
    _simple,
    _urls,
    _emails,
)


def find_sensitive(text: str) -> list[SensitiveSpan]:
    """Every sensitive span in ``text``, sorted by position; offsets are into ``text``.

    Spans of different kinds may overlap (``Authorization: Bearer eyJ…`` is a header, a
    bearer token and a JWT); each (kind, start, end) appears once.
    """
    if not text:
        return []
    norm, mapping = normalise_for_matching(text)
    found: set[tuple[str, int, int]] = set()
    for detector in _DETECTORS:
        for kind, start, end in detector(norm):
            if end <= start:
                continue
            if mapping is not None:
                start, end = mapping[start], mapping[end - 1] + 1
            found.add((kind, start, end))
    return [
        SensitiveSpan(kind=kind, start=start, end=end, label=KINDS[kind])
        for kind, start, end in sorted(found, key=lambda f: (f[1], -f[2], f[0]))
    ]


def is_sensitive(text: str) -> bool:
    """Whether ``text`` contains anything ``find_sensitive`` reports."""
    return bool(find_sensitive(text))
