"""The detect-secrets (1.5) patterns the gate reuses, loaded lazily.

detect-secrets imports ``requests`` at module level for one purpose: its plugins' ``verify``
calls, which send a found secret to its provider to see whether it is live. The gate never
verifies (it must not: that would send the secret out), and importing ``requests`` (with
urllib3, ssl, http.client and email) costs about 100 ms of every process that scans text. So
while detect-secrets is imported, ``requests`` is a stand-in module that refuses any use;
afterwards the name is free again, and anything else in the process that imports
``requests`` gets the real one.

Used as they are (each is bounded or starts with a literal, so it stays linear):

- ``GitHubTokenDetector`` — ``gh[pousr]_`` + 36. It has no ``github_pat_`` (ours).
- ``AWSKeyDetector`` — the access key id (``AKIA``/``ASIA``/``ABIA``/``ACCA``/``A3T.`` + 16)
  and the ``aws … key … "40 chars"`` secret key.
- ``SlackDetector`` — ``xox[abposr]-`` with numeric middle segments, and the webhook URL.
- ``PrivateKeyDetector`` — ``BEGIN … PRIVATE KEY`` headers (our rule spans the whole block).
- ``JwtTokenDetector`` — only its validation (header and payload decode to JSON); its regex
  is quadratic on ``"eyJ" * n`` and ends before the signature.
- ``GitLabTokenDetector`` — ``glpat-``, ``glrt-``, ``gldt-``, ``glptt-`` … (runner, deploy,
  trigger, CI tokens); ours keeps ``glpat-`` + 20 with no upper bound.
- ``TwilioKeyDetector`` — ``SK``/``AC`` + 32; a match must not be inside a longer word.
- ``SendGridDetector`` — ``SG.`` + 22 + ``.`` + 43.
- ``AzureStorageKeyDetector`` — ``AccountKey=`` + 88.
- ``DiscordBotTokenDetector``, ``TelegramBotTokenDetector``, ``SquareOAuthDetector``,
  ``PypiTokenDetector`` — their token shapes, again not inside a longer word.

Not used: ``BasicAuthDetector`` (rejects passwords with ``!$&'()*+,;=``, misses an empty
user), ``KeywordDetector`` (needs a file type, demands quotes, knows no Chinese keys),
``MailchimpDetector`` (no left boundary: ours is ``[0-9a-f]{32}-us…`` at a word start), the
entropy detectors (they flag every hash).
"""

from __future__ import annotations

import contextlib
import re
import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from context_center.engine.gate.secrets import kinds as k


@dataclass(frozen=True)
class Plugins:
    github: tuple[re.Pattern[str], ...]
    aws_key_id: re.Pattern[str]
    aws_secret: re.Pattern[str]
    slack: tuple[re.Pattern[str], ...]
    private_key_headers: tuple[re.Pattern[str], ...]
    jwt_valid: Callable[[str], bool]
    # Token shapes reported as they are (kind, pattern), checked for a word boundary.
    tokens: tuple[tuple[str, re.Pattern[str]], ...]


class _NoNetwork(types.ModuleType):
    """What detect-secrets sees as ``requests``: any use is refused."""

    def __getattr__(self, name: str) -> object:
        # An AttributeError, so introspection (``hasattr``, import hooks) sees a plain module.
        raise AttributeError(
            f"requests.{name}: Context Center never verifies a secret over the network "
            "(requests is not loaded for detect-secrets)"
        )


_IMPORT_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_requests() -> Iterator[None]:
    with _IMPORT_LOCK:
        if "requests" in sys.modules or "detect_secrets" in sys.modules:
            yield  # already imported (the real one, or detect-secrets imported elsewhere)
            return
        stand_in = _NoNetwork("requests")
        sys.modules["requests"] = stand_in
        try:
            yield
        finally:
            if sys.modules.get("requests") is stand_in:
                del sys.modules["requests"]


@cache
def plugins() -> Plugins:
    with _without_requests():
        return _load()


def _load() -> Plugins:
    from detect_secrets.plugins.aws import AWSKeyDetector
    from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
    from detect_secrets.plugins.discord import DiscordBotTokenDetector
    from detect_secrets.plugins.github_token import GitHubTokenDetector
    from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
    from detect_secrets.plugins.jwt import JwtTokenDetector
    from detect_secrets.plugins.private_key import PrivateKeyDetector
    from detect_secrets.plugins.pypi_token import PypiTokenDetector
    from detect_secrets.plugins.sendgrid import SendGridDetector
    from detect_secrets.plugins.slack import SlackDetector
    from detect_secrets.plugins.square_oauth import SquareOAuthDetector
    from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
    from detect_secrets.plugins.twilio import TwilioKeyDetector

    aws = tuple(AWSKeyDetector.denylist)
    tokens: list[tuple[str, re.Pattern[str]]] = []
    for kind, detector in (
        (k.GITLAB_TOKEN, GitLabTokenDetector),
        (k.TWILIO_KEY, TwilioKeyDetector),
        (k.SENDGRID_KEY, SendGridDetector),
        (k.AZURE_STORAGE_KEY, AzureStorageKeyDetector),
        (k.DISCORD_TOKEN, DiscordBotTokenDetector),
        (k.TELEGRAM_TOKEN, TelegramBotTokenDetector),
        (k.SQUARE_SECRET, SquareOAuthDetector),
        (k.PYPI_TOKEN, PypiTokenDetector),
    ):
        tokens.extend((kind, pattern) for pattern in detector.denylist)
    return Plugins(
        github=tuple(GitHubTokenDetector.denylist),
        aws_key_id=aws[0],
        aws_secret=aws[1],
        slack=tuple(SlackDetector.denylist),
        private_key_headers=tuple(PrivateKeyDetector.denylist),
        jwt_valid=JwtTokenDetector.is_formally_valid,
        tokens=tuple(tokens),
    )


def plugin_patterns() -> tuple[re.Pattern[str], ...]:
    """The detect-secrets regexes in use (for the bench and the tests)."""
    p = plugins()
    return (
        *p.github,
        p.aws_key_id,
        p.aws_secret,
        *p.slack,
        *p.private_key_headers,
        *(pattern for _, pattern in p.tokens),
    )
