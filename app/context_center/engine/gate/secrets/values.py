"""Whether a key names a credential and whether its value is one (not a setting or a reference).

Keys. A key names a secret when it contains APIKEY, ACCESSKEY or PRIVATEKEY (ignoring
``_``/``-``/``.``) or SECRET, TOKEN, PASSWORD, PASSWD, ``_PWD``, ``-PWD``, or has PASS,
PASSPHRASE or PASSCODE as a word (``DB_PASS``, ``ansible_ssh_pass``; not ``BYPASS``); plain
``PWD`` and ``OLDPWD`` are not secrets. A key whose last word says it points at a secret
rather than holds one — FILE, PATH, DIR, NAME, REF, URL, URI, ENDPOINT, ARN, TYPE, HASHERS … —
holds no secret unless its value looks generated: ``CLIENT_SECRET_FILE=/etc/app/client_secret
.json``, ``secretName: my-app-tls`` and ``token_type: bearer`` are references and settings.

Values that are not secrets: placeholders (``$VAR``, ``${VAR:-default}``,
``${{ secrets.X }}``, ``<token>``, ``***``, a type name, ``!vault``), code (a call
``os.getenv(``, a dotted name ``self.password``, a name that is itself a credential word
``api_key=api_key``, a keyword such as ``await``, an opening bracket), boolean or None-like
literals, and short numbers under a key that does not name the credential itself
(``password_min_length=12``; ``PASSWORD=123456`` is still a secret, since all-digit passwords
and PINs are real). Keys that name only a token keep their older, wider rule: up to 9 digits
is a setting (``max_tokens: 4096``).
"""

from __future__ import annotations

import math
import re
from collections import Counter

from context_center.engine.gate.secrets.lazy import lazy_compile

# Credential words a key may end with: then the key names the credential itself.
_CREDENTIAL_ENDINGS = ("PASSWORD", "PASSWD", "PWD", "PASS", "PASSPHRASE", "SECRET", "TOKEN", "KEY")
# Words that make a key describe a property of a credential rather than name it.
_QUALIFIER_WORDS = frozenset(
    {
        *("MIN", "MINIMUM", "MAX", "MAXIMUM", "LEN", "LENGTH", "SIZE", "COUNT", "NUM", "NUMBER"),
        *("LIMIT", "TTL", "TIMEOUT", "EXPIRY", "EXPIRES", "AGE", "DAYS", "HOURS", "MINUTES"),
        *("SECONDS", "RETRIES", "ATTEMPTS", "ROUNDS", "BITS", "VERSION", "INDEX", "PORT"),
    }
)
# Last words of a key that points at a secret (or describes it) instead of holding it.
_REFERENCE_WORDS = frozenset(
    {
        *("FILE", "FILES", "PATH", "PATHS", "DIR", "DIRECTORY", "FOLDER", "NAME", "NAMES"),
        *("REF", "REFS", "URL", "URI", "ENDPOINT", "HOST", "ARN", "TYPE", "KIND", "ENV"),
        *("VAR", "FIELD", "PARAM", "HEADER", "HASHER", "HASHERS", "ALGORITHM", "ALG"),
        *("PROVIDER", "BACKEND", "CLASS", "MODE", "FORMAT", "LOCATION", "SOURCE", "PROMPT"),
        *("HINT", "LABEL", "POLICY", "STORE", "MANAGER", "SCOPE", "SCOPES", "ISSUER"),
        *("ENCODING", "STORAGE", "ENCRYPTION", "SCHEME", "SCHEMES", "HASHING", "CIPHER"),
    }
)
WORD_SPLIT = lazy_compile(r"[^A-Za-z0-9]++|(?<=[a-z0-9])(?=[A-Z])")
# A short number (at most 6 digits, optionally signed or with a decimal part).
SHORT_NUMBER = lazy_compile(r"[+-]?+[0-9]{1,6}+(?:\.[0-9]{1,6}+)?+")
_COMPACT_KEY_WORDS = ("APIKEY", "ACCESSKEY", "PRIVATEKEY", "REQUIREPASS", "MASTERAUTH")
_PASS_WORDS = frozenset({"PASS", "PASSPHRASE", "PASSCODE"})
_KEY_WORDS = ("SECRET", "TOKEN", "PASSWORD", "PASSWD", "_PWD", "-PWD")
_PW_WORDS = frozenset({"PW", "PWD"})
_SHELL_PWD = frozenset({"PWD", "OLDPWD"})
PLACEHOLDER = lazy_compile(
    r"(?:\$\{\{.*+|\$\{[A-Za-z_][A-Za-z0-9_]*+(?::?+[-=?+][^}]*+)?+\}?|\$[A-Za-z_][A-Za-z0-9_]*+|\$\(.*+|%[A-Za-z_][A-Za-z0-9_]*+%|"
    r"<[^<>]*+>?|\{\{.*+|[*xX.•]++|null|none|nil|true|false|yes|no|on|off|enabled|disabled|"
    r"~|undefined|str|string|int|bool|bytes|optional|any|required|redacted|\[redacted\]|"
    r"!(?:vault|secret|env|ref|sub|getatt|importvalue|include)\b.*+|"
    r"env|os\.environ.*+|process\.env.*+|\[withheld[^\]]*+\]?)",
    re.IGNORECASE,
)
# Code, not a literal: a call, a dotted name, a subscript (``m["pw"]``, ``data[0]``), an
# opening bracket.
_CODE_VALUE = lazy_compile(
    r"[A-Za-z_][A-Za-z0-9_.\[\]\"']*+\(.*+|[A-Za-z_]++(?:\.[A-Za-z_]++)++|"
    r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)*+"
    r"\[(?:[0-9]++|[A-Za-z_][A-Za-z0-9_.]*+)?+\]?+|"
    r"[\[{(]"
)
_IDENTIFIER = lazy_compile(r"[A-Za-z_]++")
# A language keyword where a literal would be: ``token = await fetch()``, ``key = new Key()``.
_CODE_WORDS = frozenset(
    {"await", "new", "yield", "lambda", "function", "async", "typeof", "this", "self", "cls"}
)


def key_words(key: str) -> list[str]:
    return [w.upper() for w in WORD_SPLIT.split(key) if w]


def key_is_secret(key: str) -> bool:
    upper = key.upper().replace("TOKENIZER", "")  # a tokenizer (``cl100k_base``) is no token
    if any(w in upper for w in _KEY_WORDS):
        return True
    compact = upper.replace("_", "").replace("-", "").replace(".", "")
    if any(w in compact for w in _COMPACT_KEY_WORDS):
        return True
    # DB_PASS, ansible_ssh_pass (the split only when PASS is there at all)
    if "PASS" in upper and any(w in _PASS_WORDS for w in key_words(key)):
        return True
    # pw, pwd, db_pw, sshPw; not the shell's working folders PWD and OLDPWD
    return "PW" in upper and key not in _SHELL_PWD and any(w in _PW_WORDS for w in key_words(key))


def key_is_reference(key: str) -> bool:
    """``CLIENT_SECRET_FILE``, ``secretName``, ``token_type``: the key points at a secret."""
    words = key_words(key)
    return bool(words) and words[-1] in _REFERENCE_WORDS


def only_token_key(key: str) -> bool:
    """The key names a token and nothing stronger (``max_tokens``, ``token_limit``)."""
    upper = key.upper()
    strong = upper.replace("TOKEN", "")
    return "TOKEN" in upper and not key_is_secret(strong)


def is_authorization_key(key: str) -> bool:
    lower = key.lower()
    return lower == "authorization" or lower.endswith(
        ("-authorization", "_authorization", ".authorization")
    )


def is_placeholder(value: str) -> bool:
    return PLACEHOLDER.fullmatch(value) is not None


def is_code(key: str, value: str) -> bool:
    """``os.getenv(``, ``self.password``, ``api_key=api_key``, ``[``: code, not a secret.
    (A name with digits, ``password123``, is a literal: weak passwords look like that.)"""
    if _CODE_VALUE.fullmatch(value) is not None or value in _CODE_WORDS:
        return True
    return _IDENTIFIER.fullmatch(value) is not None and key_is_secret(value)


def names_credential(key: str) -> bool:
    """The key names the credential itself (``DB_PASSWORD``, ``apiKey``), not a property of it
    (``password_min_length``, ``max_secret_age``, ``tokens``)."""
    words = key_words(key)
    if not words or any(w in _QUALIFIER_WORDS for w in words):
        return False
    return "".join(words).endswith(_CREDENTIAL_ENDINGS)


def is_configuration(key: str, value: str) -> bool:
    """A short number under a key that does not name the credential is a setting:
    ``password_min_length=12``, ``max_tokens: 4096``. ``PASSWORD=123456`` stays a secret."""
    if value.isdigit() and len(value) <= 9 and only_token_key(key):
        return True  # max_tokens: 4096, token_limit=8000
    return SHORT_NUMBER.fullmatch(value) is not None and not names_credential(key)


def shannon_entropy(value: str) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def looks_random(value: str) -> bool:
    """A value that looks generated rather than written: 20+ characters, letters and digits,
    one unbroken stretch of 12+ between ``_``/``-``/``.``/``/``, at least 3 bits of entropy per
    character, and not a path or URL."""
    if len(value) < 20 or value.startswith(("/", ".", "~")) or "://" in value:
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if max(len(part) for part in re.split(r"[_.\-/]", value)) < 12:
        return False  # snake_case_words_2024, host/owner/repo2024/blob/main
    return shannon_entropy(value) >= 3.0


def assigned_secret(key: str, value: str) -> bool:
    """Whether ``key = value`` (any separator) assigns a secret."""
    if not value or not key_is_secret(key) or is_placeholder(value):
        return False
    if not any(c.isalnum() for c in value):
        return False  # getpass("Password: ") — the ")" after a quote is code
    if key_is_reference(key):
        return looks_random(value)
    core = value.rstrip(".)]}") or value  # "… max_password_age=90." ends a sentence
    # password_min_length=12 is a setting, os.getenv( is code
    return not (is_placeholder(core) or is_code(key, core) or is_configuration(key, core))


# Words after a number that make it a length or a period, not a PIN ("12 characters", "8 位").
_UNITS = lazy_compile(
    r"[ \t]*+(?:characters?|chars?|digits?|letters?|bytes?|bits?|words?|days?|hours?|"
    r"minutes?|seconds?|times?|attempts?|long\b|位|个字符|个字|字符|天|小时|分钟|秒|次)",
    re.IGNORECASE,
)
# Values that describe rather than state (``HS256-signed``, ``base64``, ``RSA2048``).
_DESCRIPTIVE = lazy_compile(
    r"(?:hs|rs|es|sha|md|aes|rsa|ed|utf|base|http|oauth|tls|ssl|argon|pbkdf|blake|crc|sm)"
    r"[0-9][0-9\-]*+\w*+",
    re.IGNORECASE,
)
_DESCRIPTIVE_SUFFIXES = ("-bit", "-based", "-hashed", "-encoded", "-signed", "-encrypted", "-only")


# A lower-case identifier of three or more parts (``reset_token_2024_migration_v2``).
_IDENTIFIER_LIKE = lazy_compile(r"[a-z]++(?:[_\-][a-z0-9]++){2,}+")


def stated_value(value: str, after: str, *, token_only: bool) -> bool:
    """Whether a value stated in a sentence ("the password is X", "密码是 X") is a secret.

    Stricter than an assignment, because prose says "the password is required": the value
    must have letters and digits (``hunter2``), or mixed case with a symbol, or be a PIN of
    4+ digits not followed by a unit ("12 characters", "8 位"), or look generated.
    """
    if len(value) < 4 or is_placeholder(value) or _DESCRIPTIVE.fullmatch(value):
        return False
    if value.lower().endswith(_DESCRIPTIVE_SUFFIXES):
        return False
    if _IDENTIFIER_LIKE.fullmatch(value) or is_code("", value):
        return False
    if value.startswith(("/", "~", "./")) or "://" in value:
        return False
    if value.isdigit():
        return not token_only and _UNITS.match(after) is None
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if has_digit and has_alpha:
        return True
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    if mixed and any(not c.isalnum() for c in value):
        return True
    return looks_random(value)


ANCHORED = (
    PLACEHOLDER,
    SHORT_NUMBER,
    WORD_SPLIT,
    _CODE_VALUE,
    _IDENTIFIER,
    _UNITS,
    _DESCRIPTIVE,
    _IDENTIFIER_LIKE,
)
