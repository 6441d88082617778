"""Secrets said in a sentence, typed on a command line, or kept in a credentials file.

- **Statements**, English: a credential phrase (password, passphrase, passcode, pass, pw, pwd,
  PIN, secret, secret access key, API key, access key, private key, access/auth/API token,
  token, credentials), then up to four words starting with a preposition ("for the geocoder"), then
  ``is``/``was``/``are``/``to``/``:``/``=``, optionally ``set to``/``now``, then the value:
  "the secret access key is wJalr…", "The staging password is hunter2", "Set the root password
  to S3cr3t"; also ``->``/``remains``/``becomes``, "was changed to", a word ending in ``:``
  ("password for the prod db: X"), and "use X as the (root) password"; a password word
  directly before a password-like value also counts ("with password Hunter22", "root 密码
  Hunter22", "密码Hunter22"). Chinese: 密码/口令/密钥/秘钥/私钥/令牌/凭据/
  凭证/授权码 (or an English key that names a secret: ``requirepass``, ``token``, ``key``)
  then 是/为/设置为/设为/改为/改成/换成/用/使用…: "密码是 hunter2", "数据库密码用 X". The value must
  look like a password, not a word (``values.stated_value``): "The password is required",
  "密钥是 RSA 2048 位的" and "Minimum password is 12 characters" are not secrets.
- **Command lines**: ``mysql``/``mysqldump``/``mariadb … -pVALUE`` (attached; a bare ``-p``
  prompts), ``sshpass -p VALUE``/``-pVALUE``, ``redis-cli -a VALUE``, ``docker``/``podman``/
  ``helm``/``nerdctl``/``oras``/``skopeo``/``buildah … login -p VALUE``/``--password VALUE``,
  ``mongo``/``mongosh -p VALUE``, ``sqlcmd``/``bcp -P VALUE``, ``ldapsearch … -w VALUE``,
  ``curl -u user:VALUE``, ``smbclient -U user%VALUE``, ``openssl … -passin pass:VALUE``.
  ``docker run -p 8080:80`` and ``ssh -p 2222`` are ports.
- **Credential files**: a ``.pgpass`` line ``host:port:database:user:password`` (port 2-5
  digits or ``*``) and a ``.netrc`` ``login USER password VALUE``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import islice

from context_center.engine.gate.secrets import kinds as k
from context_center.engine.gate.secrets import prefilter
from context_center.engine.gate.secrets import values as v
from context_center.engine.gate.secrets.assignments import CJK_KEY
from context_center.engine.gate.secrets.lazy import lazy_compile

Raw = tuple[str, int, int]

# --------------------------------------------------------------------------- statements

STATEMENT_KEY = lazy_compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"pass(?:word|wd|phrase|code)?+s?+|pwd?+|pin|"
    r"(?:(?:secret[ _-]access|access|secret|private|api|signing|encryption|license)[ _-]?)key|"
    r"(?:(?:access|auth|api|bearer|session|refresh|bot)[ _-])?token|"
    r"(?:client[ _-])?secret|credentials?+"
    r")(?![A-Za-z0-9_\-])",
    re.IGNORECASE,
)
_WORD = lazy_compile(r"\S++")
_PASSWORD_WORD = lazy_compile(r"pass(?:word|wd|phrase|code)", re.IGNORECASE)
_VERBS = frozenset(
    {"is", "was", "are", "were", "is:", "was:", "to", "be", "->", "=>", "remains", "stays"}
    | {"becomes", "became"}
)
# A bare "pass" is also the verb: "arguments to pass to subprocess.run" states no password.
_BARE_PASS = frozenset({"pass", "passes"})
_FILLER_START = frozenset({"for", "of", "on", "in", "at", "to", "used", "we", "that", "here"})
_SKIP_AFTER_VERB = frozenset(
    {"set", "to", "now", "still", "currently", "just", "simply", "changed", "reset", "updated"}
    | {"rotated", "switched"}
)
_QUOTES = "\"'`“”‘’«»"
_TRAILING = ".,;:)]" + _QUOTES
_CJK_VERB = (
    r"(?:改成了|换成了|设置为|设置成|用的是|就是|改为|改成|换成|变成|设为|使用|采用|是|为|用)"
)
CJK_STATEMENT = lazy_compile(
    CJK_KEY
    + r"(?:\([^)\n]{0,20}+\))?+[ \t]*+"
    + _CJK_VERB
    + r"[ \t]*+:?+[ \t]*+[\"'`“‘]?+(?P<value>[!-~]++)"
)
# 密码 or 口令, whitespace, and a value that looks like a password ("服务器 root 密码 Hunter22").
CJK_PASSWORD_SPACED = lazy_compile(r"(?:密码|口令)[ \t]++[\"'`“‘]?+(?P<value>[!-~]++)")
# 密码 or 口令 with the value written right after it ("用户名admin，密码Pa55word!").
CJK_PASSWORD_ATTACHED = lazy_compile(r"(?:密码|口令)(?P<value>[A-Za-z0-9][!-~]*+)")
# The key's first character, then the look-behind (so the search skips to ASCII letters, the
# few of a Chinese text), then the rest of the key: ``[A-Za-z_][A-Za-z0-9_.-]*+``, ``api key``
# or ``access key``, tried in that order as the plain alternation would.
ASCII_KEY_CJK_VERB = lazy_compile(
    r"[A-Za-z_](?<![A-Za-z0-9_.\-].)"
    r"(?P<keyrest>[A-Za-z0-9_.\-]*+|(?<=a)pi[ ]key|(?<=a)ccess[ ]key)[ \t]*+"
    + _CJK_VERB
    + r"[ \t]*+:?+[ \t]*+[\"'`“‘]?+(?P<value>[!-~]++)"
)


def _token_only(key: str) -> bool:
    return key.lower().rstrip("s").endswith("token") or key in ("令牌",)


def _clean(word: str, start: int) -> tuple[str, int]:
    """A value word without surrounding quotes and trailing sentence punctuation."""
    stripped = word.lstrip(_QUOTES)
    start += len(word) - len(stripped)
    return stripped.rstrip(_TRAILING), start


def _value_at(text: str, word: re.Match[str], limit: int, token_only: bool) -> Raw | None:
    value, start = _clean(word.group(), word.start())
    after = text[start + len(value) : limit]
    if v.stated_value(value, after, token_only=token_only):
        return k.STATED_SECRET, start, start + len(value)
    return None


def _has_word(words: list[re.Match[str]], rest: Iterator[re.Match[str]], j: int) -> bool:
    """Whether there is a ``j``-th word; ``words`` is read so far, ``rest`` is the rest."""
    if j >= len(words):
        words.extend(rest)  # nothing once the line is read
    return j < len(words)


def _stated_after(text: str, key: re.Match[str]) -> Raw | None:
    """The value stated after one credential phrase, if any (looks at most 160 characters of
    the same line)."""
    limit = text.find("\n", key.end(), key.end() + 160)
    limit = key.end() + 160 if limit < 0 else limit
    rest = _WORD.finditer(text, key.end(), limit)
    words = list(islice(rest, 7))  # enough for the first six words and one after a verb
    token_only = _token_only(key.group())
    spaced = bool(words) and words[0].start() > key.end()
    if spaced and _PASSWORD_WORD.fullmatch(key.group()) and words[0].group().lower() not in _VERBS:
        found = _value_at(text, words[0], limit, token_only)  # "with password Hunter22"
        if found is not None:
            return found
    i = 0
    while i < len(words) and i <= 5:
        lw = words[i].group().lower()
        if (lw in _VERBS and not (lw == "to" and key.group().lower() in _BARE_PASS)) or (
            i and len(lw) > 1 and lw.endswith(":")  # "… for the prod db: X"
        ):
            j = i + 1
            while _has_word(words, rest, j) and words[j].group().lower() in _SKIP_AFTER_VERB:
                j += 1
            found = _value_at(text, words[j], limit, token_only) if j < len(words) else None
            if found is not None:
                return found
            if lw != "to":
                return None
        elif (i == 0 and lw not in _FILLER_START) or lw.endswith((".", "!", "?", ";", ",")):
            return None
        i += 1
    return None


def _secret_key(key: str) -> bool:
    return v.key_is_secret(key) or key.lower() in ("key", "api key", "access key", "pin")


def _cjk_statements(text: str) -> Iterator[Raw]:
    cjk_key = prefilter.may_cjk_key(text)  # CJK_STATEMENT and CJK_PASSWORD_SPACED need one
    for pattern, wanted in (
        (CJK_STATEMENT, cjk_key),
        (ASCII_KEY_CJK_VERB, prefilter.may_key_cjk_verb(text)),
        (CJK_PASSWORD_SPACED, cjk_key),
        (CJK_PASSWORD_ATTACHED, cjk_key),
    ):
        if not wanted:
            continue
        for m in pattern.finditer(text):
            if pattern is ASCII_KEY_CJK_VERB and not _secret_key(
                text[m.start() : m.end("keyrest")]
            ):
                continue
            # (a "!" or "?" stays: in Chinese prose the sentence ends with "！" or "？", and a
            # password ending in "!" is common)
            value = m["value"].rstrip(_TRAILING)
            key = m.group()[: m.start("value") - m.start()]
            after = text[m.start("value") + len(value) : m.start("value") + len(value) + 12]
            if v.stated_value(value, after, token_only="令牌" in key or "oken" in key):
                yield k.STATED_SECRET, m.start("value"), m.start("value") + len(value)


_STATEMENT_NEEDLES = prefilter.STATEMENT_NEEDLES
# Where a ``STATEMENT_KEY`` match starts, counted back from the first needle it holds: the
# phrases whose first needle is "key" have a head before it ("api key" 3-4, "access key" 6-7,
# "private", "signing", "license key" 7-8, "encryption key" 10-11), "token" may follow "api ",
# "bot " (4), "auth " (5), "access ", "bearer " (7), "session ", "refresh " (8), "secret"
# "client " (7); every other phrase starts with its needle. (``test_secret_prefilter`` derives
# this table again from every phrase the pattern matches.)
NEEDLE_OFFSETS: dict[str, tuple[int, ...]] = {
    "pass": (0,),
    "pw": (0,),
    "pin": (0,),
    "key": (3, 4, 6, 7, 8, 10, 11),
    "token": (0, 4, 5, 7, 8),
    "secret": (0, 7),
    "credential": (0,),
}


# More needle occurrences than one in this many characters (``key=key=…``): the plain scan is
# cheaper than trying each place.
_DENSE = 16


def _needle_starts(
    lower: str, offsets_of: dict[str, tuple[int, ...]] | None = None
) -> list[int] | None:
    """Where a match can start (sorted, once each): ``offsets_of`` (default
    ``NEEDLE_OFFSETS``, those of ``STATEMENT_KEY``) before an occurrence of each needle; None
    when needles are dense."""
    starts: set[int] = set()
    budget = len(lower) // _DENSE + 1
    for needle, offsets in (NEEDLE_OFFSETS if offsets_of is None else offsets_of).items():
        at = lower.find(needle)
        while at >= 0:
            budget -= 1
            if budget < 0:
                return None
            starts.update(at - d for d in offsets if d <= at)
            at = lower.find(needle, at + 1)
    return sorted(starts)


# The characters the pattern's letters match, ignoring case, that ``str.lower`` does not turn
# into that letter (``ı`` is an ``i`` to it, ``ſ`` an ``s``; ``İ`` lower-cases to two). A
# text with none of them, lower-cased one for one, has its needles where the pattern sees them.
_ODD_CASE = "ıſ"
# Each needle where it starts, with the case rules of ``STATEMENT_KEY`` (so in a text whose
# lower-cased copy has other offsets, the needles of every match are found where they are).
_NEEDLE_AT = lazy_compile("(?=" + "|".join(f"({n})" for n in NEEDLE_OFFSETS) + ")", re.IGNORECASE)
_NEEDLES_BY_GROUP = tuple(NEEDLE_OFFSETS)


def _needle_starts_unicode(text: str) -> list[int] | None:
    starts: set[int] = set()
    budget = len(text) // _DENSE + 1
    for m in _NEEDLE_AT.finditer(text):
        budget -= 1
        if budget < 0:
            return None
        at = m.start()
        offsets = NEEDLE_OFFSETS[_NEEDLES_BY_GROUP[(m.lastindex or 1) - 1]]
        starts.update(at - d for d in offsets if d <= at)
    return sorted(starts)


def statement_keys(text: str, lower: str) -> Iterator[re.Match[str]]:
    """``STATEMENT_KEY.finditer(text)``, trying only where a match can start (``lower`` is
    ``text.lower()``): a skipped position could not start one."""
    if text.isascii() or (
        len(lower) == len(text) and not any(ch in text for ch in _ODD_CASE)
    ):  # each character lower-cased to one: the offsets are text's
        yield from _at_needles(STATEMENT_KEY, text, _needle_starts(lower))
    else:
        yield from _at_needles(STATEMENT_KEY, text, _needle_starts_unicode(text))


_USE_WORDS = frozenset({"use", "using", "used"})
_ARTICLES = frozenset({"the", "a", "an", "your", "our", "its", "my", "their"})


def _stated_before(text: str, key: re.Match[str]) -> Raw | None:
    """The value of "use X as the (db) password": ``use``/``using``, the value, ``as``, an
    article and at most two more words, then the credential phrase (on one line)."""
    start = text.rfind("\n", max(0, key.start() - 160), key.start()) + 1
    words = list(_WORD.finditer(text, start, key.start()))[-6:]
    for i in range(len(words) - 2):
        use, as_ = words[i].group().lower(), words[i + 2].group().lower()
        between = [w.group().lower() for w in words[i + 3 :]]
        if use not in _USE_WORDS or as_ != "as" or len(between) > 3:
            continue
        if between and between[0] in _ARTICLES:
            between = between[1:]
        if len(between) <= 2:
            return _value_at(text, words[i + 1], words[i + 2].start(), _token_only(key.group()))
    return None


def statements(text: str) -> Iterator[Raw]:
    lower = text.lower()
    if any(needle in lower for needle in _STATEMENT_NEEDLES):
        for m in statement_keys(text, lower):
            found = _stated_after(text, m) or _stated_before(text, m)
            if found is not None:
                yield found
    if not text.isascii():
        yield from _cjk_statements(text)


# --------------------------------------------------------------------------- command lines

COMMAND = lazy_compile(
    r"(?<![A-Za-z0-9_.\-/])(?P<cmd>mysql(?:dump|admin|import|sh|check|slap)?+|"
    r"mariadb(?:-dump|-admin)?+|sshpass|redis-cli|docker|podman|nerdctl|helm|oras|skopeo|"
    r"buildah|mongo(?:sh|dump|restore|export|import)?+|sqlcmd|bcp|ldap(?:search|modify|add|"
    r"delete|whoami|passwd)|curl|smbclient|openssl)(?![A-Za-z0-9_\-])"
)
# The rest of one command: to the end of the line or a pipe, ";" or "&&" outside quotes.
REST_OF_COMMAND = lazy_compile(r"(?:[^\r\n|;&'\"]|'[^'\r\n]*+'|\"[^\"\r\n]*+\"|&(?!&))*+")
ARGUMENT = lazy_compile(r"(?:[^\s'\"]|'[^'\r\n]*+'|\"[^\"\r\n]*+\")++")
_LOGIN_COMMANDS = frozenset({"docker", "podman", "nerdctl", "helm", "oras", "skopeo", "buildah"})


def _family(cmd: str) -> str:
    if cmd.startswith(("mysql", "mariadb")):
        return "mysql"
    if cmd.startswith("mongo"):
        return "mongo"
    if cmd.startswith("ldap"):
        return "ldap"
    if cmd in _LOGIN_COMMANDS:
        return "login"
    return cmd


# Options whose next argument is a password, per command family; and attached ones (-pVALUE).
_SEPARATE: dict[str, tuple[str, ...]] = {
    "sshpass": ("-p",),
    "redis-cli": ("-a", "--pass"),
    "login": ("-p", "--password"),
    "mongo": ("-p", "--password"),
    "sqlcmd": ("-P",),
    "bcp": ("-P",),
    "ldap": ("-w",),
    "curl": ("-u", "--user", "--proxy-user", "-U"),
    "smbclient": ("-U", "--user"),
    "openssl": ("-passin", "-passout", "-pass", "-k"),
}
_ATTACHED: dict[str, str] = {"mysql": "-p", "sshpass": "-p"}


def _unquote(arg: str, start: int) -> tuple[str, int]:
    if len(arg) >= 2 and arg[0] in "'\"" and arg[-1] == arg[0]:
        return arg[1:-1], start + 1
    return arg, start


def _password_part(family: str, value: str, start: int) -> tuple[str, int] | None:
    """The password inside an option value: after ``user:`` for curl, ``user%`` for
    smbclient, ``pass:`` for openssl; the whole value otherwise."""
    sep = {"curl": ":", "smbclient": "%", "openssl": ":"}.get(family)
    if sep is not None:
        if family == "openssl" and not value.startswith("pass:"):
            return None
        cut = value.find(sep)
        if cut < 0:
            return None  # curl -u user prompts for the password
        value, start = value[cut + 1 :], start + cut + 1
    if not value or v.is_placeholder(value) or value.startswith("-"):
        return None
    return value, start


def _option_value(family: str, args: list[re.Match[str]], i: int) -> tuple[str, int] | None:
    arg = args[i].group()
    attached = _ATTACHED.get(family)
    if attached and arg.startswith(attached) and len(arg) > len(attached):
        return _unquote(arg[len(attached) :], args[i].start() + len(attached))
    if arg in _SEPARATE.get(family, ()) and i + 1 < len(args):
        return _unquote(args[i + 1].group(), args[i + 1].start())
    return None


def _command_passwords(family: str, args: list[re.Match[str]]) -> Iterator[Raw]:
    if family == "login" and not any(a.group() == "login" for a in args):
        return
    for i in range(len(args)):
        found = _option_value(family, args, i)
        if found is None:
            continue
        part = _password_part(family, *found)
        if part is not None:
            value, start = part
            yield k.COMMAND_LINE_PASSWORD, start, start + len(value)


def _at_needles(
    pattern: re.Pattern[str], text: str, starts: Iterable[int] | None
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` when every match starts at one of ``starts`` (sorted): a
    match attempt does not depend on where the scan began (look-behinds see the whole
    text), and the scan goes on after each match as ``finditer`` does. ``starts`` None: the
    plain scan."""
    if starts is None:
        yield from pattern.finditer(text)
        return
    pos = 0
    for start in starts:
        if start < pos:
            continue
        m = pattern.match(text, start)
        if m is not None:
            yield m
            pos = m.end()


def _command_starts(text: str) -> list[int] | None:
    """Where a ``COMMAND`` match can start: each of its names begins with a needle (None
    when they are dense)."""
    return _needle_starts(text, dict.fromkeys(prefilter.COMMAND_NEEDLES, (0,)))


def commands(text: str) -> Iterator[Raw]:
    if not prefilter.may_command(text):
        return  # no command's name, or no "-" for a password option
    until = -1
    for m in _at_needles(COMMAND, text, _command_starts(text)):
        if m.start() < until:
            continue
        rest = REST_OF_COMMAND.match(text, m.end())
        until = rest.end() if rest else m.end()
        args = list(ARGUMENT.finditer(text, m.end(), until))
        yield from _command_passwords(_family(m["cmd"]), args)


# --------------------------------------------------------------------------- credential files

PGPASS = lazy_compile(
    r"(?<![A-Za-z0-9_.\-*\[\]])(?P<host>\*|[A-Za-z0-9_.\-\[\]]++):(?P<port>[1-9][0-9]{1,4}+|\*):"
    r"(?P<db>[^\s:]++):(?P<user>[^\s:]++):(?P<pw>(?:[^\s:\\]|\\.)++)(?![^\s])"
)
NETRC = lazy_compile(
    r"(?<![A-Za-z0-9_\-])login[ \t]++[^\s]++[ \t\r\n]++password[ \t]++(?P<value>[^\s]++)"
)
_HAS_LETTER = lazy_compile(r"[A-Za-z*]")


def credential_files(text: str) -> Iterator[Raw]:
    if text.count(":") >= 4:
        yield from _pgpass(text)
    if "login" in text and "password" in text:
        for m in NETRC.finditer(text):
            if not v.is_placeholder(m["value"]):
                yield k.CREDENTIAL_FILE_LINE, m.start("value"), m.end("value")


def _pgpass(text: str) -> Iterator[Raw]:
    for m in PGPASS.finditer(text):
        pw = m["pw"]
        if not (_HAS_LETTER.search(m["db"]) and _HAS_LETTER.search(m["user"])):
            continue  # 10:30:00:00:00 is a time
        if v.is_placeholder(pw) or pw.startswith(("/", "~")):
            continue
        yield k.CREDENTIAL_FILE_LINE, m.start("pw"), m.end("pw")


SCANNING = (
    STATEMENT_KEY,
    CJK_STATEMENT,
    CJK_PASSWORD_SPACED,
    ASCII_KEY_CJK_VERB,
    COMMAND,
    PGPASS,
    NETRC,
)
ANCHORED = (REST_OF_COMMAND, ARGUMENT, _WORD, _PASSWORD_WORD)
