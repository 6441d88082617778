"""Credentials recognised by their own shape: service tokens, JWTs, private keys, URLs, email.

Our patterns (the detect-secrets ones are in ``plugins``): ``Bearer`` + 16 (or a JWT-shaped
``Bearer eyJ…`` of any length), ``sk-``/``rk-`` + 12, ``github_pat_``, ``gh[pousr]_`` + 20,
GitLab ``glpat-`` + 20, Google ``AIza`` + 35, Stripe ``sk_live_``/``rk_live_``/``sk_test_``/
``rk_test_`` + 16, npm ``npm_`` + 36, Slack ``xox[baprs]-`` + 10, Docker ``dckr_pat_``/
``dckr_oat_`` + 20, DigitalOcean ``dop_v1_``/``doo_v1_``/``dor_v1_`` + 64 hex, Hugging Face
``hf_`` + 30, Shopify ``shpat_``/``shpss_``/``shpca_``/``shppa_`` + 32 hex, Mailchimp 32 hex +
``-us`` + 1-2 digits, Alibaba Cloud ``LTAI`` + 12-30, Tencent Cloud ``AKID`` + 32, Azure
``SharedAccessKey=`` + 40, Google OAuth ``ya29.``/``1//0`` tokens, Vault
``hvs.``/``hvb.``/``hvr.`` + 24, ``age`` secret keys (``AGE-SECRET-KEY-1…``), JWTs (validated by detect-secrets), private key blocks from
``-----BEGIN … PRIVATE KEY-----`` to their ``-----END …-----`` line (PEM, PKCS#8, OpenSSH,
PGP; PuTTY headers to the end of the line; an END line with no BEGIN before it, as in an
excerpt cut inside a block, from the start of the text), URLs with ``user:password@``, and
email addresses — also written ``name (at) example (dot) com``, ``name [at] example.com`` or
``name at example dot com`` (then the last word must be a common top-level domain).

Not an email: an ``scp``/``ssh`` target (``git@github.com:owner/repo``,
``ops@host.example.com:/srv``, ``ssh deploy@build.example.com``) and the user part of a URL
without a password (``https://git@bitbucket.org/…``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from context_center.engine.gate.secrets import kinds as k
from context_center.engine.gate.secrets import prefilter
from context_center.engine.gate.secrets.lazy import lazy_compile
from context_center.engine.gate.secrets.plugins import plugins

Raw = tuple[str, int, int]

_B = r"(?<![A-Za-z0-9_\-])"  # a token starts a run of token characters


def _token(prefix: str, width: int, rest: str, boundary: str = r"[A-Za-z0-9_\-]") -> str:
    """``prefix`` (``width`` characters) not preceded by a token character, then ``rest``.

    The look-behind comes after the prefix, not before it, so the regex engine can jump from
    one occurrence of the prefix to the next instead of trying every position: an attempt
    still starts only where a run starts (a prefix inside a run fails the look-behind).
    """
    return rf"{prefix}(?<!{boundary}.{{{width}}}){rest}"


BEARER = lazy_compile(
    r"(?<![A-Za-z0-9_\-])bearer[ \t]++"
    r"(?P<value>(?-i:eyJ)[A-Za-z0-9._~+/=\-]++|[A-Za-z0-9._~+/=\-]{16,}+)",
    re.IGNORECASE,
)
API_KEY = lazy_compile(_token(r"(?:sk|rk)-", 3, r"[A-Za-z0-9_\-]{12,}+"))
GITLAB_PAT = lazy_compile(_token("glpat-", 6, r"[A-Za-z0-9_\-]{20,}+"))
GOOGLE_API_KEY = lazy_compile(_token("AIza", 4, r"[A-Za-z0-9_\-]{35,}+"))
STRIPE_KEY = lazy_compile(_token(r"(?:sk|rk)_(?:live|test)_", 8, r"[A-Za-z0-9]{16,}+"))
NPM_TOKEN = lazy_compile(_token("npm_", 4, r"[A-Za-z0-9]{36,}+"))
GITHUB_PAT = lazy_compile(_token("github_pat_", 11, r"[A-Za-z0-9_]{22,}+", r"[A-Za-z0-9_]"))
GITHUB_LOOSE = lazy_compile(_token("gh[pousr]_", 4, r"[A-Za-z0-9_]{20,}+", r"[A-Za-z0-9_]"))
SLACK_LOOSE = lazy_compile(_token("xox[baprs]-", 5, r"[A-Za-z0-9\-]{10,}+"))
DOCKER = lazy_compile(_token("dckr_(?:pat|oat)_", 9, r"[A-Za-z0-9_\-]{20,}+"))
DIGITALOCEAN = lazy_compile(_token("do[opr]_v1_", 7, r"[a-f0-9]{64}+"))
HUGGINGFACE = lazy_compile(_token("hf_", 3, r"[A-Za-z0-9]{30,}+"))
SHOPIFY = lazy_compile(_token("shp(?:at|ss|ca|pa)_", 6, r"[a-fA-F0-9]{32}+"))
MAILCHIMP = lazy_compile(r"(?<![A-Za-z0-9])[0-9a-f]{32}+-us[0-9]{1,2}+(?![0-9])")
CLOUD_ACCESS_KEY = lazy_compile(
    _token("(?:LTAI|AKID)", 4, r"(?:(?<=LTAI)[A-Za-z0-9]{12,30}+|(?<=AKID)[A-Za-z0-9]{32,}+)")
    + r"(?![A-Za-z0-9])",
)
GOOGLE_OAUTH = lazy_compile(_token(r"ya29\.", 5, r"[A-Za-z0-9_\-]{20,}+"))
GOOGLE_REFRESH = lazy_compile(_token("1//0", 4, r"[A-Za-z0-9_\-]{40,}+"))
VAULT = lazy_compile(_token(r"hv[sbr]\.", 4, r"[A-Za-z0-9_\-]{24,}+"))
AGE_SECRET_KEY = lazy_compile(_token("AGE-SECRET-KEY-1", 16, r"[0-9A-Z]{50,}+"))
AZURE_SHARED_KEY = lazy_compile(
    _token("SharedAccessKey=", 16, r"(?P<value>[A-Za-z0-9+/]{40,}+=*+)", r"[A-Za-z0-9]")
)
JWT_PATTERN = lazy_compile(
    _token("eyJ", 3, r"[A-Za-z0-9_\-]++\.[A-Za-z0-9_\-]++\.[A-Za-z0-9_\-]*+")
)
PEM_BEGIN = lazy_compile(
    r"-----BEGIN[ ]++(?:(?!PRIVATE )[A-Z0-9]++[ ]++)*+PRIVATE[ ]++KEY(?:[ ]++BLOCK)?+-----"
)
PEM_END = lazy_compile(
    r"-----END[ ]++(?:(?!PRIVATE )[A-Z0-9]++[ ]++)*+PRIVATE[ ]++KEY(?:[ ]++BLOCK)?+-----"
)
PUTTY = lazy_compile(r"(?<![A-Za-z0-9])PuTTY-User-Key-File-[0-9]++:")
URL_CREDENTIALS = lazy_compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+://"
    r"(?P<userinfo>[^\s:/?#\[\]@]*+:[^\s/?#\[\]@]++)@"
)
EMAIL = lazy_compile(
    r"(?<![A-Za-z0-9._%+\-])(?P<local>[A-Za-z0-9._%+\-]++)@"
    r"(?P<domain>[A-Za-z0-9\-]++(?:\.[A-Za-z0-9\-]++)++)"
)
# ``name (at) example (dot) com``, ``name [at] example.com``, ``name {at} example{dot}cn``.
_OPEN, _CLOSE = r"[ \t]*+[(\[{<][ \t]*+", r"[ \t]*+[)\]}>][ \t]*+"
OBFUSCATED_EMAIL = lazy_compile(
    rf"(?<![A-Za-z0-9._%+\-])(?P<local>[A-Za-z0-9._%+\-]++){_OPEN}at{_CLOSE}"
    rf"(?P<domain>[A-Za-z0-9\-]++(?:(?:\.|{_OPEN}dot{_CLOSE})[A-Za-z0-9\-]++)++)",
    re.IGNORECASE,
)
# A quick test for ``(at)``/``[at]``… before the obfuscated pattern runs at every word.
_AT_BRACKET = prefilter.AT_BRACKET
# ``alice at example dot com``: plain words, so the last one must be a common top-level domain.
WORDED_EMAIL = lazy_compile(
    r"(?<![A-Za-z0-9._%+\-])(?P<local>[A-Za-z0-9._%+\-]++)[ \t]++at[ \t]++"
    r"(?P<domain>[A-Za-z0-9\-]++(?:[ \t]++dot[ \t]++[A-Za-z0-9\-]++)++)",
)
_COMMON_TLDS = frozenset(
    {
        *("com", "org", "net", "io", "dev", "ai", "app", "co", "cn", "uk", "de", "fr", "jp"),
        *("ru", "edu", "gov", "me", "info", "biz", "us", "ca", "au", "nl"),
    }
)
TOKEN_CHARS = lazy_compile(r"[A-Za-z0-9_\-]*+")
# A command that takes ``user@host``: what follows it on the line is not an email.
_REMOTE_COMMAND = lazy_compile(
    r"(?:^|[\s;&|(`])(?:ssh|scp|sftp|rsync|mosh|autossh|ssh-copy-id)[ \t]", re.MULTILINE
)

# Each shape with the literal pieces one of which any match contains: when none is in the
# text the pattern is not run at all (a substring search is far cheaper than a scan).
OWN_TOKENS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    (k.API_KEY, API_KEY, ("sk-", "rk-")),
    (k.GITLAB_TOKEN, GITLAB_PAT, ("glpat-",)),
    (k.GOOGLE_API_KEY, GOOGLE_API_KEY, ("AIza",)),
    (k.STRIPE_KEY, STRIPE_KEY, ("sk_", "rk_")),
    (k.NPM_TOKEN, NPM_TOKEN, ("npm_",)),
    (k.GITHUB_TOKEN, GITHUB_PAT, ("github_pat_",)),
    (k.GITHUB_TOKEN, GITHUB_LOOSE, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    (k.SLACK_TOKEN, SLACK_LOOSE, ("xox",)),
    (k.DOCKER_TOKEN, DOCKER, ("dckr_",)),
    (k.DIGITALOCEAN_TOKEN, DIGITALOCEAN, ("_v1_",)),
    (k.HUGGINGFACE_TOKEN, HUGGINGFACE, ("hf_",)),
    (k.SHOPIFY_TOKEN, SHOPIFY, ("shp",)),
    (k.MAILCHIMP_KEY, MAILCHIMP, ("-us",)),
    (k.CLOUD_ACCESS_KEY, CLOUD_ACCESS_KEY, ("LTAI", "AKID")),
    (k.GOOGLE_OAUTH_TOKEN, GOOGLE_OAUTH, ("ya29.",)),
    (k.GOOGLE_OAUTH_TOKEN, GOOGLE_REFRESH, ("1//0",)),
    (k.VAULT_TOKEN, VAULT, ("hvs.", "hvb.", "hvr.")),
    (k.PRIVATE_KEY, AGE_SECRET_KEY, ("AGE-SECRET-KEY-1",)),
    (k.AZURE_STORAGE_KEY, AZURE_SHARED_KEY, ("SharedAccessKey=",)),
)
# Any needle of those (a substring search each: an alternation is slower on a long run).
_OWN_NEEDLES = tuple(dict.fromkeys(n for _, _, ns in OWN_TOKENS for n in ns))
# The same for the detect-secrets shapes (``plugins``), by kind.
_PLUGIN_NEEDLES: dict[str, tuple[str, ...]] = {
    k.GITLAB_TOKEN: ("gl", "GR1348941"),
    k.TWILIO_KEY: ("AC", "SK"),
    k.SENDGRID_KEY: ("SG.",),
    k.AZURE_STORAGE_KEY: ("AccountKey=",),
    k.DISCORD_TOKEN: (".",),
    k.TELEGRAM_TOKEN: (":",),
    k.SQUARE_SECRET: ("sq0",),
    k.PYPI_TOKEN: ("pypi-",),
}
_GITHUB_NEEDLES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")
_AWS_ID_NEEDLES = ("A3T", "ABIA", "ACCA", "AKIA", "ASIA")


def _has(text: str, needles: tuple[str, ...]) -> bool:
    return any(needle in text for needle in needles)


SCANNING = (
    BEARER,
    *(pattern for _, pattern, _ in OWN_TOKENS),
    JWT_PATTERN,
    PEM_BEGIN,
    PEM_END,
    PUTTY,
    URL_CREDENTIALS,
    EMAIL,
    OBFUSCATED_EMAIL,
    WORDED_EMAIL,
)
ANCHORED = (TOKEN_CHARS, _AT_BRACKET, _REMOTE_COMMAND)
_WORD_CHAR = lazy_compile(r"[A-Za-z0-9_\-]")


def _inside_word(text: str, start: int) -> bool:
    return start > 0 and _WORD_CHAR.match(text, start - 1) is not None


def _github_plugin(text: str) -> Iterator[Raw]:
    for pattern in plugins().github:
        extended = -1
        for m in pattern.finditer(text):
            # Grow the fixed-length plugin match over the rest of its token (for highlighting);
            # consecutive matches in one run share the run's end, so it is scanned once.
            if m.end() > extended:
                run = TOKEN_CHARS.match(text, m.end())
                extended = run.end() if run else m.end()
            yield k.GITHUB_TOKEN, m.start(), extended


# For each detect-secrets shape, a pattern every one of its matches also matches (so checking
# it first changes nothing found): text that matches none of them never loads detect-secrets
# (about 100 ms of imports, ``requests`` among them), e.g. a recall block in a recall process.
_PLUGIN_MAYBE: dict[str, re.Pattern[str]] = {
    k.GITLAB_TOKEN: lazy_compile(r"gl[a-z]{2,6}-|GR1348941"),
    k.TWILIO_KEY: lazy_compile(r"(?:AC|SK)[a-z0-9]{32}"),
    k.SENDGRID_KEY: lazy_compile(r"SG\.[A-Za-z0-9_-]{22}\."),
    k.AZURE_STORAGE_KEY: lazy_compile(r"AccountKey="),
    # (these two written from their literal, so the search skips to it)
    k.DISCORD_TOKEN: lazy_compile(r"\.(?<=[a-zA-Z\d_-]{24}\.)[a-zA-Z\d_-]{6}\."),
    k.TELEGRAM_TOKEN: lazy_compile(r":(?<=\d{8}:)"),
    k.SQUARE_SECRET: lazy_compile(r"sq0csp-"),
    k.PYPI_TOKEN: lazy_compile(r"pypi-"),
}
# Every detect-secrets Slack match holds one of these, with the plugins' own case rules (a word
# like "toxoxa" then does not load detect-secrets).
_SLACK_MAYBE = lazy_compile(r"xox[abposr]-\d|hooks\.slack\.com", re.IGNORECASE)
_AWS_SECRET_MAYBE = lazy_compile(r"['\"][0-9a-zA-Z/+]{40}['\"]", re.IGNORECASE)


def _plugin_tokens(text: str) -> Iterator[Raw]:
    if _has(text, _GITHUB_NEEDLES):
        yield from _github_plugin(text)
    lower = text.lower()
    if ("xox" in lower or "hooks.slack.com" in lower) and _SLACK_MAYBE.search(text):
        for pattern in plugins().slack:
            yield from ((k.SLACK_TOKEN, m.start(), m.end()) for m in pattern.finditer(text))
    if _has(text, _AWS_ID_NEEDLES):
        for m in plugins().aws_key_id.finditer(text):
            yield k.AWS_ACCESS_KEY, m.start(), m.end()
    if "aws" in lower and _AWS_SECRET_MAYBE.search(text):
        for m in plugins().aws_secret.finditer(text):
            yield k.AWS_SECRET_KEY, m.start(1), m.end(1)
    kinds = {
        kind
        for kind, needles in _PLUGIN_NEEDLES.items()
        if _has(text, needles) and _PLUGIN_MAYBE[kind].search(text)
    }
    if not kinds:
        return
    for kind, pattern in plugins().tokens:
        if kind not in kinds:
            continue
        for m in pattern.finditer(text):
            if not _inside_word(text, m.start()):
                yield kind, m.start(), m.end()


def service_tokens(text: str) -> Iterator[Raw]:
    """Every token recognised by its shape alone (the only detectors run on joined text)."""
    if not prefilter.may_hold_token(text):
        return  # no run long enough for a token, none of the shorter shapes' needles
    # Each own shape is a token run (``prefilter.TOKEN_RUN``) holding one of its needles.
    if prefilter.token_run(text) and _has(text, _OWN_NEEDLES):
        yield from _own_tokens(text)
    if _has(text, _AWS_ID_NEEDLES):
        yield from _aws_pairs(text)
    yield from _plugin_tokens(text)


def _own_tokens(text: str) -> Iterator[Raw]:
    for kind, pattern, needles in OWN_TOKENS:
        if not _has(text, needles):
            continue
        for m in pattern.finditer(text):
            if kind == k.API_KEY and not _random_key(m.group()):
                continue
            if "value" in pattern.groupindex:
                yield kind, m.start("value"), m.end("value")
            else:
                yield kind, m.start(), m.end()
    yield from _glued_tokens(text)


# A distinctive token prefix glued to a word by ``-`` or ``_`` (``deploy-glpat-…``,
# ``pre-sk-proj-…``, a slug's ``frob-ghp_…``), where the shapes' own rule wants a run to start
# at the token. Each such place is tried on the next _GLUED_SPAN characters alone, so a run of
# them costs what many short texts would (no attempt reads past its window).
_GLUED = lazy_compile(
    r"(?<=[A-Za-z0-9])[-_](?=(?P<prefix>(?:sk|rk)-|glpat-|gh[pousr]_|github_pat_|xox[baprs]-|"
    r"npm_|hf_|dckr_|AIza|ya29\.|hv[sbr]\.|do[opr]_v1_))"
)
_GLUED_SPAN = 256
# A part of an ``sk-``/``rk-`` key long and mixed enough to be generated: hyphenated words
# (``sk-learn-compatible-estimators``, ``rk-tools-for-benchmarking-v2``, a branch
# ``sk-1234-fix-login``) are names, not keys.
_KEY_PART = lazy_compile(r"[A-Za-z0-9]{12,}+")


def _random_key(token: str) -> bool:
    """An unbroken body (``sk-`` and 12 or more letters and digits), or a part of 12 or more
    with digits or mixed case (``sk-proj-…``, ``sk-ant-api03-…``)."""
    if _KEY_PART.match(token, 3) is not None:
        return True
    for part in _KEY_PART.findall(token):
        digits = any(c.isdigit() for c in part)
        if (digits and not part.isdigit()) or (not part.islower() and not part.isupper()):
            return True
    return False


_SHAPES_OF: dict[str, list[tuple[str, re.Pattern[str]]]] = {}


def _shapes_of(prefix: str) -> list[tuple[str, re.Pattern[str]]]:
    """The own shapes a glued ``prefix`` (as ``_GLUED`` found it) can start: those with a
    needle the prefix holds or starts with (``dop_v1_`` holds ``_v1_``), once per prefix."""
    shapes = _SHAPES_OF.get(prefix)
    if shapes is None:
        shapes = [
            (kind, pattern)
            for kind, pattern, needles in OWN_TOKENS
            if "value" not in pattern.groupindex
            and any(n in prefix or prefix.startswith(n) for n in needles)
        ]
        _SHAPES_OF[prefix] = shapes
    return shapes


def _glued_tokens(text: str) -> Iterator[Raw]:
    covered = 0  # a place inside a token found here is part of it, not another one
    for m in _GLUED.finditer(text):
        at = m.end()
        if at < covered:
            continue
        piece = text[at : at + _GLUED_SPAN]
        for kind, pattern in _shapes_of(m["prefix"]):
            found = pattern.match(piece)
            if found is None:
                continue
            if kind != k.API_KEY or _random_key(found.group()):
                covered = max(covered, at + found.end())
                yield kind, at + found.start(), at + found.end()


# An AWS access key id and, a few separators on, its 40-character secret: the console's CSV
# (``Access key ID,Secret access key`` then ``AKIA…,wJalr…``), ``AKIA…:wJalr…``, ``aws AKIA…
# wJalr…`` -- the secret half has no key name of its own to find it by.
AWS_PAIR = lazy_compile(
    r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}+(?![A-Za-z0-9])"
    r"[ \t,:;|\"'=]{1,6}+(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)


def _aws_pairs(text: str) -> Iterator[Raw]:
    for m in AWS_PAIR.finditer(text):
        yield k.AWS_SECRET_KEY, m.start("secret"), m.end("secret")


def bearer_and_jwt(text: str) -> Iterator[Raw]:
    if "bearer" in text.lower():
        for m in BEARER.finditer(text):
            yield k.BEARER_TOKEN, m.start("value"), m.end("value")
    if "eyJ" not in text:
        return
    jwt_valid = plugins().jwt_valid
    for m in JWT_PATTERN.finditer(text):
        if jwt_valid(m.group().rstrip(".")):
            yield k.JWT, m.start(), m.end()


def private_keys(text: str) -> Iterator[Raw]:
    if "PRIVATE" not in text and "PuTTY" not in text:
        return
    blocks: list[tuple[int, int]] = []
    first_end = PEM_END.search(text)
    first_begin = PEM_BEGIN.search(text, 0, first_end.start()) if first_end else None
    if first_end is not None and first_begin is None:
        # An END with no BEGIN before it: the text starts inside a key block (a cut excerpt).
        blocks.append((0, first_end.end()))
        yield k.PRIVATE_KEY, 0, first_end.end()
    for m in PEM_BEGIN.finditer(text):
        if blocks and m.start() < blocks[-1][1]:
            continue
        end_match = PEM_END.search(text, m.end())
        end = end_match.end() if end_match else len(text)
        blocks.append((m.start(), end))
        yield k.PRIVATE_KEY, m.start(), end
    # Headers detect-secrets knows that the block rule does not match (PuTTY, odd dashes):
    # reported from the header to the end of its line.
    for pattern in (*plugins().private_key_headers, PUTTY):
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
            yield k.PRIVATE_KEY, m.start(), line_end


def urls(text: str) -> Iterator[Raw]:
    if "://" not in text:
        return
    for m in URL_CREDENTIALS.finditer(text):
        yield k.URL_CREDENTIALS, m.start("userinfo"), m.end("userinfo")
    yield from _loose_url_passwords(text)


# ``scheme://user:`` and what follows to the end of the run: a password written without
# escaping its ``#``, ``/``, ``?`` or ``@`` (``postgres://app:Zx9#@db``, ``…:p@ss@db``, as .env
# files hold them) runs to the run's last ``@`` (within _URL_RUN characters).
URL_USER = lazy_compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+://(?P<user>[^\s:/?#\[\]@]*+):"
)
_URL_RUN_END = lazy_compile(r"[\s\"'`<>]")
_URL_RUN = 256
_PORT = lazy_compile(r"[0-9]{1,5}+(?:[/?#]|$)")


def _loose_url_passwords(text: str) -> Iterator[Raw]:
    for m in URL_USER.finditer(text):
        stop = _URL_RUN_END.search(text, m.end(), m.end() + _URL_RUN)
        run = text[m.end() : stop.start() if stop else m.end() + _URL_RUN]
        at = run.rfind("@")
        if at > 0 and _PORT.match(run) is None:  # ``http://host:80/x@y`` names a port
            yield k.URL_CREDENTIALS, m.start("user"), m.end() + at


def _remote_target(text: str, m: re.Match[str]) -> bool:
    """``git@github.com:owner/repo``, ``ops@host:/srv``, ``https://git@host/…``,
    ``ssh deploy@host``: a login on a host, not a mailbox."""
    after = text[m.end() : m.end() + 2]
    if after[:1] == ":" and after[1:2] not in ("", " ", "\t", "\n", "\r"):
        return True
    if text[max(0, m.start() - 3) : m.start()] == "://":
        return True
    line_start = text.rfind("\n", max(0, m.start() - 200), m.start()) + 1
    window = text[max(line_start, m.start() - 200) : m.start()]
    return _REMOTE_COMMAND.search(window) is not None


def _plausible(local: str, domain: str) -> bool:
    tld = domain.rsplit(".", 1)[1]
    return len(tld) >= 2 and tld.isalpha() and local.strip(".") == local and ".." not in local


def emails(text: str) -> Iterator[Raw]:
    if "@" in text:
        yield from _plain_emails(text)
    if _AT_BRACKET.search(text):
        for m in OBFUSCATED_EMAIL.finditer(text):
            tld = re.split(r"[^A-Za-z0-9\-]++", m["domain"])[-1]
            if len(tld) >= 2 and tld.isalpha() and tld.lower() != "dot":
                yield k.EMAIL, m.start(), m.end()
    if " at " in text and " dot " in text:
        for m in WORDED_EMAIL.finditer(text):
            if m["domain"].rsplit(None, 1)[-1].lower() in _COMMON_TLDS:
                yield k.EMAIL, m.start(), m.end()


def _plain_emails(text: str) -> Iterator[Raw]:
    for m in EMAIL.finditer(text):
        if _plausible(m["local"], m["domain"]) and not _remote_target(text, m):
            yield k.EMAIL, m.start(), m.end()
