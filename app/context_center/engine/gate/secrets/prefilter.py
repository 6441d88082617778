"""Cheap tests that prove a text holds nothing the secret scan reports.

``may_hold(text)`` is False only for a text in which no detector and no decoder can find
anything, so ``find_sensitive`` returns ``[]`` for it without running the pattern battery;
most ordinary facts (words, identifiers, short paths) are such texts. ``text`` is the
*matching copy* (``normalise.base_view(text).text``), which is what every detector reads.

Every test is a necessary condition of a finding, never a heuristic; each detector's reason:

- ``assignments``: ``KEY=value``, ``key: value``, headers and the Chinese ``密码：`` forms
  consume ``:`` or ``=``; XML needs ``<``; a key spaced from its value needs a 20-character
  value run (``TOKEN_RUN`` holds every such run).
- ``tokens``: every service-token shape is a run of at least 15 characters of
  ``[A-Za-z0-9+/=_.-]`` (``sk-`` + 12 and ``xox?-`` + 10 are the shortest; see
  ``may_hold_token``), except detect-secrets' Slack shape (``xoxb-1-a``: "xox"), its AWS
  secret rule ("aws": it ignores case, so ``ı`` counts as a letter), Square (``sq0csp-``
  and 43 characters that may include backslashes: ``\\`` or a run), Telegram (``:``), the
  Slack webhook (``://``) and Discord in a non-ASCII text (its ``\\d`` takes any script's
  digits: its own pre-check is run). Bearer tokens need "bearer", JWTs ``eyJ`` (a valid one
  can be shorter than a run), private key blocks and headers "key" (``PRIVATE KEY``,
  ``PuTTY-User-Key-File-``); URLs with a password ``://``; email ``@``, a bracketed
  ``(at)`` (the same pre-check ``tokens.emails`` runs) or " at " and " dot ".
- ``statements``: an English credential phrase holds one of ``STATEMENT_NEEDLES`` (in the
  lower-cased text, as ``statements.statements`` tests); a Chinese key holds one of
  ``密令秘私凭授`` (every word of ``assignments.CJK_KEY`` does); an English key before a
  Chinese verb (``token 是 …``) needs a verb character ``是为改换设变`` and a key that
  ``values.key_is_secret`` accepts, whose lower-cased, ``_-.``-less spelling holds one of
  ``COMPACT_NEEDLES``; a command line needs its command's name (``COMMAND_NEEDLES``) and a
  ``-`` (every password option starts with one); ``.pgpass`` lines ``:``; ``.netrc`` lines
  "password".
- ``obfuscation``: URL escapes need ``%``; base64 and hex runs are value runs; ``\\x``
  escapes need a backslash; hex bytes are separated by ``:`` or by spaces, and 12 pairs with
  spaces are seven short words in a row (``SHORT_WORDS``), as are spaced-out letters; joins
  consume a line break or a ``+``.

``tests/engine/gate/test_secret_prefilter.py`` checks all of this against the scan with every
pre-check off and against the scan as it was before them (the secrets package at commit
6974358), on a large varied corpus, and shows that dropping any one condition loses findings.
"""

from __future__ import annotations

import re

# One of these characters: ``:`` (assignments, headers, URLs, .pgpass, Telegram, hex bytes,
# the Slack webhook), ``=`` (assignments), ``<`` (XML), ``%`` (URL escapes), ``@`` (email),
# ``\\`` (``\\x`` escapes, line continuations), a line break or ``+`` (joins).
_TRIGGER_CHARS = re.compile(r"[:=<%@\\\r\n+]")
# In the lower-cased text: credential phrases (``statements``), "bearer", Slack's "xox",
# detect-secrets' AWS secret rule ("aws").
STATEMENT_NEEDLES = ("pass", "pw", "pin", "key", "token", "secret", "credential")
_LOWER_NEEDLES = (*STATEMENT_NEEDLES, "bearer", "xox", "aws")
# As written: JWTs (a valid one can be shorter than a token run: ``eyJhIjowfQ.MA.``). Private
# key blocks and headers all hold "key" (``PRIVATE KEY``, ``PuTTY-User-Key-File-``).
_CASE_NEEDLES = ("eyJ",)
# Fifteen characters of a token's class in a row: every own token shape (the shortest is
# ``sk-`` + 12, ``xox?-`` + 10) and every detect-secrets shape but those named above, every
# value run (20 such characters) and every base64 or hex run holds one.
# A character of a token or an assigned value (assignments.VALUE_RUN(S) are runs of the same
# class: a run of 20 holds one of 15).
VALUE_CHAR = r"[A-Za-z0-9+/=_.\-]"
TOKEN_RUN = re.compile(VALUE_CHAR + "{15}")
# A space, then six words of one or two printable characters each followed by one space: in
# spaced-out letters (``g h p _ A 1 …``, eight or more) from the first space on, and in 12 hex
# pairs separated by spaces. Starting at a literal space, the search skips to spaces.
SHORT_WORDS = re.compile(r" (?:[!-~][!-~]? ){6}")
# ``name (at) example``: the same test ``tokens.emails`` makes before its pattern.
# (``[aA][tT]`` is what ``at`` with IGNORECASE matches, and the search is faster without it.)
AT_BRACKET = re.compile(r"[(\[{<][ \t]*+[aA][tT][ \t]*+[)\]}>]")
# detect-secrets' Discord shape starts with 24 characters of ``[a-zA-Z\d_-]`` where ``\d`` is
# any script's digit: in a non-ASCII text that need not be a token run.
# (Written from its ``.``, so the search skips to dots.)
_DISCORD_START = re.compile(r"\.(?<=[a-zA-Z\d_-]{24}\.)")
# ``alice at example dot com`` (``tokens.emails`` tests the same).
_WORDED_EMAIL = (" at ", " dot ")
COMMAND_NEEDLES = (
    *("mysql", "mariadb", "sshpass", "redis-cli", "docker", "podman", "nerdctl", "helm"),
    *("oras", "skopeo", "buildah", "mongo", "sqlcmd", "bcp", "ldap", "curl", "smbclient"),
    "openssl",
)
# Every word of ``assignments.CJK_KEY`` holds one of these; every ``statements`` Chinese verb
# one of the second.
_CJK_KEY_CHARS = "密令秘私凭授"
_CJK_VERB_CHARS = "是为改换设变用"
# A key ``values.key_is_secret`` accepts, lower-cased and without ``_-.``, holds one of these
# (SECRET, TOKEN, PASSWORD, PASSWD, _PWD, -PWD, APIKEY, ACCESSKEY, PRIVATEKEY, REQUIREPASS,
# MASTERAUTH, the word PASS, the words PW and PWD), as do ``key``, ``api key``, ``access key``
# and ``pin`` (before a Chinese verb).
COMPACT_NEEDLES = ("secret", "token", "pass", "pw", "key", "masterauth", "pin")

# (AT_BRACKET is an anchored pattern of ``tokens``, which uses it too.)
PATTERNS = (_TRIGGER_CHARS, TOKEN_RUN, SHORT_WORDS, _DISCORD_START)


_last_run: tuple[str, bool] = ("", False)
_last_short: tuple[str, bool] = ("", False)


def token_run(text: str) -> bool:
    """Whether ``text`` holds ``TOKEN_RUN``. Such a run has no white space, so a text with no
    word of 15 characters has none (``split`` is much cheaper than the search). The last
    answer is kept: one scan asks about one text several times."""
    global _last_run
    last = _last_run  # one read: another thread may replace it, never half
    if last[0] is text:
        return last[1]
    found = max(map(len, text.split()), default=0) >= 15 and TOKEN_RUN.search(text) is not None
    _last_run = (text, found)
    return found


def short_words(text: str) -> bool:
    """Whether ``text`` holds ``SHORT_WORDS`` (the last answer is kept, as ``token_run``)."""
    global _last_short
    last = _last_short
    if last[0] is text:
        return last[1]
    found = SHORT_WORDS.search(text) is not None
    _last_short = (text, found)
    return found


def may_hold_token(text: str) -> bool:
    """Whether ``tokens.service_tokens`` can find anything in ``text``."""
    if token_run(text) or ":" in text or "\\" in text:
        return True
    lower = text.lower()
    if "xox" in lower or "aws" in lower:
        return True
    return not text.isascii() and _DISCORD_START.search(text) is not None


def may_command(text: str) -> bool:
    """Whether ``statements.commands`` can find anything: a command's name and a ``-``."""
    return "-" in text and any(needle in text for needle in COMMAND_NEEDLES)


def may_join(text: str) -> bool:
    """Whether ``obfuscation.JOIN`` can match: each of its forms consumes a line break or a
    ``+``."""
    return "\n" in text or "\r" in text or "+" in text


def may_space_out(text: str) -> bool:
    """Whether ``obfuscation.SPACED_LETTERS`` can match (seven ``X `` in a row)."""
    return short_words(text)


def may_hex_bytes(text: str) -> bool:
    """Whether ``obfuscation.HEX_BYTES`` can match: 12 pairs with ``:`` or ``' '`` between."""
    return ":" in text or short_words(text)


def _may_hold_words(text: str) -> bool:
    """The needles of every detector that looks for words (see the module docstring)."""
    lower = text.lower()
    if any(needle in lower for needle in _LOWER_NEEDLES):
        return True
    if any(needle in text for needle in _CASE_NEEDLES):
        return True
    if all(needle in text for needle in _WORDED_EMAIL):
        return True
    return may_command(text)


def may_cjk_key(text: str) -> bool:
    """Whether ``text`` can hold a word of ``assignments.CJK_KEY`` (密码, 令牌 …)."""
    return any(ch in text for ch in _CJK_KEY_CHARS)


def may_key_cjk_verb(text: str) -> bool:
    """Whether ``statements.ASCII_KEY_CJK_VERB`` can find a secret's key before a Chinese
    verb: a verb character, and a key ``values.key_is_secret`` accepts (or ``key``)."""
    return any(ch in text for ch in _CJK_VERB_CHARS) and may_secret_key(text)


def may_secret_key(text: str) -> bool:
    """Whether ``text`` can hold a key ``values.key_is_secret`` accepts (or ``key``): its
    lower-cased, ``_-.``-less spelling is part of the text's."""
    compact = text.lower().replace("_", "").replace("-", "").replace(".", "")
    return any(needle in compact for needle in COMPACT_NEEDLES)


def _may_hold_cjk(text: str) -> bool:
    """The Chinese forms: a Chinese key, or an English key before a Chinese verb."""
    return may_cjk_key(text) or may_key_cjk_verb(text)


def may_hold(text: str) -> bool:
    """False only when nothing in ``text`` (a matching copy) can be a finding."""
    if _TRIGGER_CHARS.search(text) is not None or _may_hold_words(text):
        return True
    if AT_BRACKET.search(text) is not None or may_hold_token(text):
        return True
    if short_words(text):
        return True
    return not text.isascii() and _may_hold_cjk(text)
