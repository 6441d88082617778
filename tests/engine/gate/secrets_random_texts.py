"""Seeded random texts for the secret scan's differential test (``test_secret_prefilter``).

Each text joins one to six pieces: a key prefix and a token run, a key and a value with any
separator, base64, hex (plain, spaced, with colons, ``\\x`` escapes) or URL escapes of an
assignment, a URL with a password, a Chinese key or verb and a value, spaced-out letters,
look-alike, full-width and invisible characters, PEM blocks, non-Latin digits and dotless
``ı``, or ordinary filler. Only the prefixes are written here: every value is generated.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Iterator

_ALNUM = string.ascii_letters + string.digits
_T = _ALNUM + "+/=_.-"
_PREFIXES = (
    *("sk-", "rk-", "glpat-", "AIza", "sk_live_", "rk_test_", "npm_", "github_pat_", "ghp_"),
    *("gho_", "xoxb-", "xoxp-1-", "dckr_pat_", "dop_v1_", "hf_", "shpat_", "LTAI", "AKID"),
    *("ya29.", "1//0", "hvs.", "AGE-SECRET-KEY-1", "SharedAccessKey=", "AccountKey=", "AKIA"),
    *("SG.", "sq0csp-", "pypi-AgEIcHlwaS5vcmc", "GR1348941", "glrt-", "AC", "SK", "eyJ"),
    *("Bearer ", "bearer ", "Basic ", "-----BEGIN RSA PRIVATE KEY-----", "PuTTY-User-Key-File-2:"),
)
_KEYS = (
    *("password", "DB_PASS", "api_key", "apiKey", "secret", "token", "client_secret", "pwd"),
    *("db_pwd", "requirepass", "master.auth", "AWS_SECRET_ACCESS_KEY", "auth_token", "PIN"),
    *("access key", "signing-key", "encryption_key", "credentials", "Authorization", "Cookie"),
    *("max_tokens", "token_type", "password_min_length", "secretName", "name", "host"),
)
_CJK = (
    "密码",
    "口令",
    "密钥",
    "令牌",
    "凭据",
    "授权码",
    "是",
    "为",
    "设置为",
    "改成",
    "的",
    "配置",
)
_SEPS = (": ", "=", " = ", " ", " is ", " 是 ", "：", "\n", "\r\n", '" + "', "\\\n", ":=", "\t")
_FILLER = (
    *("the", "deploy", "cache", "release_v12", "#6928", "src/app/queue_retry.py", "is", "a"),
    *("服务器", "发布", "流水线", "；", "，", "。", "(", ")", "[at]", " at ", " dot ", "@"),
    *("mysql", "curl -u", "docker login -p", "-p", "%41", "%3D", "\\x41", "://", "<", ">"),
)


def _run(rng: random.Random, alphabet: str = _T) -> str:
    return "".join(
        rng.choice(alphabet) for _ in range(rng.choice((3, 8, 12, 14, 15, 16, 20, 24, 40, 64)))
    )


def _piece(rng: random.Random) -> str:
    kind = rng.randrange(12)
    secret = _run(rng, _ALNUM) + rng.choice(("", "9", "Q2"))
    if kind == 0:
        return rng.choice(_PREFIXES) + _run(rng, rng.choice((_ALNUM, _T, "0123456789abcdef")))
    if kind == 1:
        return rng.choice(_KEYS) + rng.choice(_SEPS) + secret
    if kind == 2:
        raw = rng.choice(_KEYS) + "=" + secret
        return base64.b64encode(raw.encode()).decode()
    if kind == 3:
        raw = (rng.choice(_KEYS) + "=" + secret).encode()
        sep = rng.choice(("", " ", ":", "\\x"))
        return (sep if sep == "\\x" else "") + sep.join(f"{b:02x}" for b in raw)
    if kind == 4:
        return f"postgres://{rng.choice(('alice', ''))}:{secret}@db.example.com/app"
    if kind == 5:
        return rng.choice(_CJK) + rng.choice(_SEPS) + secret
    if kind == 6:
        return " ".join(rng.choice(_PREFIXES) + secret)
    if kind == 7:
        return "".join(rng.choice((c, c, c + "\u200b", c.upper(), "ο", "ｓ")) for c in secret)
    if kind == 8:
        return "-----BEGIN PRIVATE KEY-----\n" + _run(rng) + "\n-----END PRIVATE KEY-----"
    if kind == 9:
        return rng.choice(("٣" * 10, "ı" * 20, "Ｋｅｙ", "\ufeff", "\u034f", "А")) + _run(rng)
    if kind == 10:
        return "%" + "%".join(f"{b:02X}" for b in (rng.choice(_KEYS) + "=" + secret).encode())
    return rng.choice(_FILLER)


def random_texts(n: int) -> Iterator[str]:
    rng = random.Random(20261201)
    for _ in range(n):
        pieces = [_piece(rng) for _ in range(rng.randrange(1, 7))]
        yield "".join(p + rng.choice((" ", " ", "", "\n", "，", ". ")) for p in pieces)
