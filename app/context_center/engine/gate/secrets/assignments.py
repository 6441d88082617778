"""Secrets assigned to a name: ``KEY=value``, ``key: value``, headers, XML, Chinese keys.

- ``KEY=value``, ``key: value``, ``key := value``, ``--password=value``, ``"key": "value"``
  where the key names a credential (``values.assigned_secret``). A quoted value runs to its
  closing quote (``password: "correct horse battery"``); an unquoted one stops at whitespace,
  a quote, ``,``/``;`` and an ``&name=`` (the next query parameter). After any other key the
  scan goes on right after its separator, so ``data=api_key=…`` and ``?format=json&api_key=…``
  still see ``api_key`` as a key.
- ``Authorization:`` and ``Cookie:``/``Set-Cookie:`` headers: the value runs to the end of the
  line. ``Bearer $TOKEN`` and ``Bearer <token>`` are placeholders.
- Chinese keys 密码/口令/密钥/秘钥/私钥/令牌/凭据/凭证/授权码 with ``:`` or ``=`` (full-width
  ``：`` is normalised to ``:``). "密码是 X" is a statement, see ``statements``.
- A key and a value that looks generated separated only by whitespace
  (``AWS_SECRET_ACCESS_KEY wJalr…``, ``密钥 wJalr…``).
- ``<password>X</password>`` and ``<add key="ApiKey" value="X"/>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from context_center.engine.gate.secrets import kinds as k
from context_center.engine.gate.secrets import prefilter
from context_center.engine.gate.secrets import values as v
from context_center.engine.gate.secrets.lazy import lazy_compile

Raw = tuple[str, int, int]  # kind, start, end in the scanned text

# Characters a key name is made of (Reasonix's rule) and its boundary.
_KEY = r"[A-Za-z0-9_.\-]"
# A key and its separator. The value is read by ``VALUE`` only after a key that names a
# credential, and the scan then goes on after the value; after any other key it goes on right
# after the separator, so ``data=api_key=…`` and ``?format=json&api_key=…`` still see
# ``api_key`` as a key, and no character is read as a value more than once.
ASSIGNMENT = lazy_compile(
    rf"(?<!{_KEY})-{{0,2}}+(?P<key>[A-Za-z_]{_KEY}*+)"
    r"[\"'\]]{0,2}+[ \t]*+(?P<sep>:=|=|:)[ \t]*+"
)
# A quoted value runs to its closing quote; an unquoted one stops at whitespace, a quote,
# "," or ";", and at an "&" that starts the next ``name=``.
VALUE = lazy_compile(
    r"(?P<q>[\"'`])(?P<qvalue>[^\"'`\r\n]++)"
    r"|(?P<value>(?:[^\s\"'`,;&]|&(?![A-Za-z_][A-Za-z0-9_.\-]*+=))++)"
)
# A header's value runs to the end of the line (or a closing quote).
REST_OF_LINE = lazy_compile(r"[^\r\n\"'`]*+")
CJK_KEY = r"(?:访问密钥|密码|口令|密钥|秘钥|私钥|令牌|凭据|凭证|授权码)"
CJK_ASSIGNMENT = lazy_compile(CJK_KEY + r"[ \t]*+[:=][ \t]*+[\"'`]?+(?P<value>[!-~]++)")
# A key and its value separated only by whitespace (``AWS_SECRET_ACCESS_KEY wJalr…``): the value
# must look random, so prose ("the API_KEY variable") stays out. The value is only looked at, so
# in ``export AWS_SECRET_ACCESS_KEY v`` the key is not swallowed as the value of ``export``.
_SPACED_VALUE = r"(?=(?P<value>[A-Za-z0-9+/][A-Za-z0-9+/=_.\-]{19,}+))"
SPACED_ASSIGNMENT = lazy_compile(
    rf"(?<!{_KEY})(?P<key>[A-Za-z_]{_KEY}*+)[\"']?+[ \t]++[\"'`]?+" + _SPACED_VALUE
)
CJK_SPACED_ASSIGNMENT = lazy_compile(CJK_KEY + r"[ \t]++[\"'`]?+" + _SPACED_VALUE)
# Twenty characters of the value class in a row: every spaced value, hex run (24 digits) and
# base64 run (20 characters of a smaller class) holds such a run, so a text without one
# needs none of those scans, and the decoders look for hex and base64 only inside them.
VALUE_RUN = lazy_compile(prefilter.VALUE_CHAR + "{20}")
# The runs themselves, whole (an attempt inside a shorter run reads at most 19 characters).
VALUE_RUNS = lazy_compile(prefilter.VALUE_CHAR + "{20,}+")

Span = tuple[int, int]
_last_runs: tuple[str, tuple[Span, ...]] = ("", ())


def value_runs(text: str) -> tuple[Span, ...]:
    """Where ``text``'s runs of 20 or more value characters are; the last answer is kept, as
    one scan asks more than once about the same text (the assignments and the decoders)."""
    global _last_runs
    last = _last_runs  # one read: another thread may replace it, never half
    if last[0] is text:
        return last[1]
    # a run of 20 holds one of 15 (``prefilter.token_run``, usually answered already)
    found = tuple(m.span() for m in VALUE_RUNS.finditer(text)) if prefilter.token_run(text) else ()
    _last_runs = (text, found)
    return found


def has_value_run(text: str) -> bool:
    """Whether ``text`` holds ``VALUE_RUN``."""
    return bool(value_runs(text))


XML_ELEMENT = lazy_compile(
    r"(?<![<>])<(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*+)>[ \t]*+(?P<value>[^<\s]++)[ \t]*+</(?P=key)>"
)
KEY_VALUE_ATTRIBUTES = lazy_compile(
    r"(?<![A-Za-z0-9_\-])key[ \t]*+=[ \t]*+\"(?P<key>[^\"\r\n]{1,100}+)\"[ \t]++"
    r"value[ \t]*+=[ \t]*+\"(?P<value>[^\"\r\n]++)\""
)
_SCHEME_PLACEHOLDER = lazy_compile(r"(?:bearer|basic|token|bot|digest)[ \t]++(?P<rest>.*+)", re.I)

SCANNING = (
    ASSIGNMENT,
    CJK_ASSIGNMENT,
    SPACED_ASSIGNMENT,
    CJK_SPACED_ASSIGNMENT,
    XML_ELEMENT,
    KEY_VALUE_ATTRIBUTES,
)
ANCHORED = (VALUE, REST_OF_LINE, _SCHEME_PLACEHOLDER)


def _header_placeholder(whole: str) -> bool:
    """``Bearer $TOKEN``, ``Bearer <token>``, ``$AUTH``: no credential is written."""
    if v.is_placeholder(whole):
        return True
    m = _SCHEME_PLACEHOLDER.fullmatch(whole)
    return m is not None and v.is_placeholder(m.group("rest").strip())


_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "negotiate", "apikey"})


def _header_prose(whole: str) -> bool:
    """A sentence about the header, not its value: the scheme and a placeholder then words
    (``Bearer $TOKEN is a placeholder.``, ``Bearer <token> with each request``), or words
    (``header carries the bearer token.``)."""
    words = whole.split()
    if len(words) < 3:
        return False
    if words[0].lower() in _SCHEMES:
        return v.is_placeholder(words[1].rstrip(".,;:"))
    return words[0].isalpha() and words[0].islower() and words[1].isalpha()


def _header(text: str, m: re.Match[str], start: int) -> tuple[Raw | None, int]:
    """The finding for a header whose value starts at ``start``, and where the line ends."""
    rest = REST_OF_LINE.match(text, start)
    end = start + len(rest.group().rstrip()) if rest else start
    whole = text[start:end]
    if m["key"].lower().endswith("authorization"):
        if not _header_placeholder(whole) and not _header_prose(whole):
            return (k.AUTHORIZATION_HEADER, start, end), end
    elif "=" in whole:  # name=value pairs; "cookie: yum" is prose
        return (k.COOKIE_HEADER, start, end), end
    return None, end


def _is_header(m: re.Match[str]) -> bool:  # m: an ASSIGNMENT match
    key = m["key"]
    return v.is_authorization_key(key) or (
        key.lower() in ("cookie", "set-cookie") and m["sep"] == ":"
    )


def _value(m: re.Match[str]) -> tuple[str, int]:  # m: a VALUE match
    if m["q"]:
        return m["qvalue"].strip(), m.start("qvalue") + (
            len(m["qvalue"]) - len(m["qvalue"].lstrip())
        )
    return m["value"].rstrip(")]}"), m.start("value")  # f(password: str) — ")" closes code


def _key_values(text: str) -> Iterator[Raw]:
    if ":" not in text and "=" not in text:
        return  # every ASSIGNMENT match holds its separator
    pos = 0
    while (m := ASSIGNMENT.search(text, pos)) is not None:
        pos = m.end()
        if text.endswith("${", 0, m.start()):
            continue  # the name in ${DB_PASSWORD:-postgres}
        header = _is_header(m)
        if not header and not v.key_is_secret(m["key"]):
            continue  # the common case, decided without reading the value
        val = VALUE.match(text, m.end())
        if val is None:
            continue
        if header:
            start = val.start("qvalue") if val["q"] else val.start("value")
            found, pos = _header(text, m, start)  # a header value covers the rest of its line
            if found is not None:
                yield found
            continue
        pos = val.end()
        value, start = _value(val)
        if v.assigned_secret(m["key"], value):
            yield k.SECRET_ASSIGNMENT, start, start + len(value)


def _markup(text: str) -> Iterator[Raw]:
    for pattern in (XML_ELEMENT, KEY_VALUE_ATTRIBUTES):
        for m in pattern.finditer(text):
            if v.assigned_secret(m["key"], m["value"]):
                yield k.SECRET_ASSIGNMENT, m.start("value"), m.end("value")


def _spaced(text: str) -> Iterator[Raw]:
    if not has_value_run(text):
        return  # both patterns look ahead at a value of 20 such characters
    for m in SPACED_ASSIGNMENT.finditer(text) if prefilter.may_secret_key(text) else ():
        key, value = m.group("key"), m.group("value")
        if v.key_is_secret(key) and v.looks_random(value):
            aws = "AWS" in key.upper() and "SECRET" in key.upper() and len(value) == 40
            yield k.AWS_SECRET_KEY if aws else k.SECRET_ASSIGNMENT, m.start("value"), m.end("value")
    if text.isascii() or not prefilter.may_cjk_key(text):
        return
    for m in CJK_SPACED_ASSIGNMENT.finditer(text):
        if v.looks_random(m.group("value")):
            yield k.SECRET_ASSIGNMENT, m.start("value"), m.end("value")


def _cjk(text: str) -> Iterator[Raw]:
    for m in CJK_ASSIGNMENT.finditer(text):
        value = m.group("value").rstrip(",.;)")
        if value and not v.is_placeholder(value):
            yield k.SECRET_ASSIGNMENT, m.start("value"), m.start("value") + len(value)


def assignments(text: str) -> Iterator[Raw]:
    yield from _key_values(text)
    yield from _spaced(text)
    if "<" in text:
        yield from _markup(text)
    if not text.isascii() and prefilter.may_cjk_key(text):
        yield from _cjk(text)
