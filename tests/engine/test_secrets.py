"""Sensitive-content detection: every class, obfuscated variants, non-secrets, linear structure."""

from __future__ import annotations

import base64
import itertools
import json
import re
import re._constants as C
import re._parser as P

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_center.engine.gate.secrets import (
    ANCHORED_PATTERNS,
    BOUNDED_PATTERNS,
    DEFAULT_IGNORABLE_RANGES,
    KINDS,
    OWN_PATTERNS,
    SCANNING_PATTERNS,
    SensitiveSpan,
    find_sensitive,
    is_default_ignorable,
    is_sensitive,
    normalise_for_matching,
    plugin_patterns,
)

# Fake credentials, assembled so no literal token sits in the source.
GHP = "ghp_" + "A1b2C3d4E5" * 3 + "f6G7h8"  # 36 after the prefix
GITHUB_PAT = "github_pat_" + "11ABCDEFG0" + "abcdefghij12" + "_" + "Z9y8X7w6V5" * 5 + "u4T3s2R1q"
SLACK = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
AKIA = "AKIA" + "IOSFODNN7EXAMPLE"
ASIA = "ASIA" + "Y34FZKBOKMUTVV7A"
SK = "sk-" + "proj-" + "Ab3dEf6hIj9kLm2nOp5q"
RK = "rk-" + "live-" + "0123456789abcdef"
GLPAT = "glpat-" + "xK9mPq2RsT" + "4vWy6Za8Bc"  # 20 after the prefix
GOOGLE = "AIza" + "SyD4bX9kQ2" + "mN7pR3tV8w" + "Y1zA5cE0gH6" + "jL9oU"  # 35 after
STRIPE_LIVE = "sk_" + "live_" + "51H8kQ2mN7pR3tV8"
STRIPE_RESTRICTED = "rk_" + "live_" + "4eC39HqLyjWDarjt"
STRIPE_TEST = "sk_" + "test_" + "4eC39HqLyjWDarjtT1zdp7dc"
NPM = "npm_" + "Ab3dEf6hIj" * 3 + "Kl9mNo"  # 36 after
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def _b64(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


JWT = (
    _b64({"alg": "HS256", "typ": "JWT"})
    + "."
    + _b64({"sub": "1234567890"})
    + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

PEM_BODY = "MIIEowIBAAKCAQEA7bq3\nQ2x5Y3xLk9vZm9vYmFy\n"


def kinds(text: str) -> set[str]:
    return {s.kind for s in find_sensitive(text)}


def spans_of(text: str, kind: str) -> list[str]:
    return [text[s.start : s.end] for s in find_sensitive(text) if s.kind == kind]


# --------------------------------------------------------------------------- key = value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("API_KEY=abc123def456", "abc123def456"),
        ("export OPENAI_APIKEY=zz9zz9zz9", "zz9zz9zz9"),
        ("api-key: k3y-value", "k3y-value"),
        ("apiKey = 'quoted-value'", "quoted-value"),
        ('{"client_secret": "s3cr3t-json"}', "s3cr3t-json"),
        ("AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AKIDEXAMPLE"),
        ("accessKey: abcdef", "abcdef"),
        ("PRIVATE_KEY=/etc/ssl/key.pem", "/etc/ssl/key.pem"),
        ("private.key: inline", "inline"),
        ("GITLAB_TOKEN=glpat-xxxxyyyyzzzz", "glpat-xxxxyyyyzzzz"),
        ("refresh_token := r3fr3sh", "r3fr3sh"),
        ("spring.datasource.password=hunter2", "hunter2"),
        ("PASSWORD: correct", "correct"),
        ("MYSQL_PASSWD=pa55", "pa55"),
        ("DB_PWD=hunter2", "hunter2"),
        ("MYSQL-PWD=hunter2", "hunter2"),
        ("os.environ['SECRET_KEY'] = 'django-insecure'", "django-insecure"),
        ("the password=letmein123 works", "letmein123"),
        ("密码：hunter2", "hunter2"),
        ("私钥: base64stuff", "base64stuff"),
    ],
)
def test_assignment_flags_the_value(text: str, value: str) -> None:
    assert value in spans_of(text, "secret_assignment")


@pytest.mark.parametrize(
    "text",
    [
        "PWD=/home/x",
        "OLDPWD=/home/x/old",
        "export PWD=/tmp OLDPWD=/home/x",
        "PASSWORD=${DB_PASSWORD}",
        "TOKEN=$GITHUB_TOKEN",
        "API_KEY=<your api key>",
        "secret: ****",
        "password: null",
        "def login(user: str, password: str) -> None:",
        "max_tokens: 4096",
        "token_limit=8000",
        "password:",  # a YAML mapping key with the value on the next line
        "the token is cached for an hour",
        "密码为空时提示用户",
    ],
)
def test_assignment_non_secrets(text: str) -> None:
    assert "secret_assignment" not in kinds(text)


def test_numeric_password_is_still_a_secret() -> None:
    assert spans_of("PASSWORD=123456", "secret_assignment") == ["123456"]
    assert spans_of("SECRET_TOKEN=123456", "secret_assignment") == ["123456"]


@pytest.mark.parametrize(
    "text",
    [
        "password_min_length=12",
        "PASSWORD_MIN_LENGTH: 12",
        "passwordMinLength = 8",
        "maxPassword=8",
        "min_password_length=10",
        "secret_rotation_days=90",
        "api_key_count: 3",
        "token_ttl=3600",
        "ACCESS_KEY_VERSION=2",
        "password_retries: -1",
        "secret_entropy_bits=128.5",
        "max_tokens: 4096",
        "TOKEN=8000",
        "password_required=true",
        "use_api_key: yes",
        "PASSWORD=no",
        "secret: off",
        "SECRET_KEY=None",
        "token: ~",
        "api_key = false",
        "Passwords expire: max_password_age=90.",
        "Keys are optional (use_api_key: false).",
    ],
)
def test_configuration_values_are_not_secrets(text: str) -> None:
    assert "secret_assignment" not in kinds(text), find_sensitive(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password=hunter2", "hunter2"),
        ("password=123456", "123456"),  # names the credential itself: a numeric password or PIN
        ("DB_PASSWORD: 4711", "4711"),
        ("apiKey=123456", "123456"),
        ("SECRET_KEY=42", "42"),
        ("password_min_length=1234567", "1234567"),  # more than 6 digits is not a short setting
        ("password_min_length=12ab", "12ab"),
        ("password=yes123", "yes123"),
        ("密码：123456", "123456"),
    ],
)
def test_credential_values_near_the_configuration_rule(text: str, value: str) -> None:
    assert spans_of(text, "secret_assignment") == [value]


# --------------------------------------------------------------------------- key, whitespace, value


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        (f"AWS_SECRET_ACCESS_KEY {AWS_SECRET}", AWS_SECRET, "aws_secret_key"),
        (f"AWS_SECRET_ACCESS_KEY\t{AWS_SECRET}", AWS_SECRET, "aws_secret_key"),
        (f"set -x AWS_SECRET_ACCESS_KEY {AWS_SECRET}", AWS_SECRET, "aws_secret_key"),
        (f"export AWS_SECRET_ACCESS_KEY '{AWS_SECRET}'", AWS_SECRET, "aws_secret_key"),
        (
            "SECRET_KEY 3f786850e387550fdab836ed7e6dc881de23001b",
            "3f786850e387550fdab836ed7e6dc881de23001b",
            "secret_assignment",
        ),
        (
            "the GITHUB_TOKEN 9a8b7c6d5e4f3a2b1c0d9e8f7a6b",
            "9a8b7c6d5e4f3a2b1c0d9e8f7a6b",
            "secret_assignment",
        ),
        (
            "api_key 123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-426614174000",
            "secret_assignment",
        ),
        (f"密钥 {AWS_SECRET}", AWS_SECRET, "secret_assignment"),
    ],
)
def test_key_whitespace_random_value(text: str, value: str, kind: str) -> None:
    assert value in spans_of(text, kind)


@pytest.mark.parametrize(
    "text",
    [
        "PWD=/home/x",
        "PWD /home/x/projects/context-center2",
        "Set the GITHUB_TOKEN environment variable before running the suite.",
        "the password reset_token_2024_migration_v2 is documented",
        "password short",
        "SECRET_KEY DjangoSecretKeyGeneratorClass",  # no digits: a name, not a value
        "API_KEY ./config/credentials/api-key-2024.json",
        "TOKEN https://example.com/oauth2/authorize/v2",
        "token aaaaaaaaaaaaaaaaaaaaaaaa1",  # low entropy
        "the secret github.com/owner/repo2024/blob/main/README",
        "max_tokens 4096",
        "the commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the token refresh",
        "密钥 管理策略见文档",
    ],
)
def test_key_whitespace_prose_is_not_a_secret(text: str) -> None:
    assert find_sensitive(text) == [], find_sensitive(text)


# --------------------------------------------------------------------------- headers


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Authorization: Basic dXNlcjpwYXNz", "Basic dXNlcjpwYXNz"),
        ("authorization:token abc", "token abc"),
        ("Proxy-Authorization: Digest username=x", "Digest username=x"),
        ('curl -H "Authorization: Bearer abc" https://x', "Bearer abc"),
        ("HTTP_AUTHORIZATION=Token t0k3n", "Token t0k3n"),
    ],
)
def test_authorization_header(text: str, value: str) -> None:
    assert spans_of(text, "authorization_header") == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Cookie: session=abc123; theme=dark", "session=abc123; theme=dark"),
        (
            "Set-Cookie: sid=31d4d96e407aad42; Path=/; HttpOnly",
            "sid=31d4d96e407aad42; Path=/; HttpOnly",
        ),
        ("-H 'cookie: a=b'", "a=b"),
    ],
)
def test_cookie_header(text: str, value: str) -> None:
    assert spans_of(text, "cookie_header") == [value]


def test_cookie_prose_is_not_a_header() -> None:
    assert not is_sensitive("cookie: the browser keeps one")


def test_header_on_one_long_line_is_reported_once() -> None:
    text = "Authorization: Basic abc Authorization: Basic def"
    assert spans_of(text, "authorization_header") == ["Basic abc Authorization: Basic def"]


# --------------------------------------------------------------------------- tokens


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Bearer abcdefghijklmnop", "abcdefghijklmnop"),
        ("use bearer   eyXyZ0123456789._~+/=-", "eyXyZ0123456789._~+/=-"),
    ],
)
def test_bearer_token(text: str, token: str) -> None:
    assert spans_of(text, "bearer_token") == [token]


def test_bearer_needs_16_characters() -> None:
    assert "bearer_token" not in kinds("Bearer abcdefghijklmno")  # 15
    assert "bearer_token" not in kinds("the bearer of bad news")


@pytest.mark.parametrize("token", ["eyJhbGciOi", "eyJ0.eyJ1.x", "eyJhbGciOiJIUzI1NiJ9", JWT])
def test_bearer_jwt_shaped_value_of_any_length(token: str) -> None:
    assert spans_of(f"Authorization header was Bearer {token} here", "bearer_token") == [token]


@pytest.mark.parametrize("text", ["Bearer eyJ", "Bearer eyj0123", "Bearer EYJ0123", "bearer eyes"])
def test_bearer_short_values_that_are_not_jwt_shaped(text: str) -> None:
    assert "bearer_token" not in kinds(text)


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        (GLPAT, "gitlab_token"),
        (GLPAT + "Zz9-_x", "gitlab_token"),
        (GOOGLE, "google_api_key"),
        (STRIPE_LIVE, "stripe_key"),
        (STRIPE_RESTRICTED, "stripe_key"),
        (STRIPE_TEST, "stripe_key"),
        ("rk_" + "test_" + "0123456789abcdef", "stripe_key"),
        (NPM, "npm_token"),
    ],
)
def test_prefixed_service_tokens(token: str, kind: str) -> None:
    assert spans_of(f"use {token}, then", kind) == [token]
    assert spans_of(f"key={token}", kind) == [token]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("glpat-" + "a1" * 9 + "b", "gitlab_token"),  # 19 after the prefix
        ("glpat-", "gitlab_token"),
        ("myglpat-" + "a1" * 10, "gitlab_token"),  # not at a token start
        ("AIza" + "b2" * 17, "google_api_key"),  # 34 after the prefix
        ("aiza" + "b2" * 18, "google_api_key"),  # case matters
        ("sk_" + "live_" + "c3" * 7 + "d", "stripe_key"),  # 15
        ("pk_" + "live_" + "c3" * 10, "stripe_key"),  # publishable keys are public
        ("sk_" + "prod_" + "c3" * 10, "stripe_key"),
        ("npm_" + "e4" * 17 + "f", "npm_token"),  # 35
        ("run npm_config_cache=/tmp/npm", "npm_token"),
    ],
)
def test_prefixed_service_non_tokens(text: str, kind: str) -> None:
    assert kind not in kinds(text)


@pytest.mark.parametrize("token", [SK, RK, "sk-" + "a" * 12, "sk-ant-api03-" + "x1" * 10])
def test_sk_rk_keys(token: str) -> None:
    assert spans_of(f"key {token} end", "api_key") == [token]


@pytest.mark.parametrize(
    "text", ["task-management-system", "sk-short", "disk-usage-report-tool", "rk-12345678901"]
)
def test_sk_rk_non_keys(text: str) -> None:
    assert "api_key" not in kinds(text)


@pytest.mark.parametrize(
    "token",
    [
        GHP,
        "gho_" + GHP[4:],
        "ghs_" + GHP[4:],
        "ghu_" + GHP[4:],
        "ghr_" + GHP[4:],
        GHP + "extra1",  # longer than 36: the span covers the whole token
        "ghp_" + "Ab1" * 8,  # 24 characters: not the plugin's length, our looser rule
        GITHUB_PAT,
    ],
)
def test_github_tokens(token: str) -> None:
    assert token in spans_of(f"token {token}.", "github_token")


def test_github_non_tokens() -> None:
    assert "github_token" not in kinds("ghp_short and github_pat_tooshort")


@pytest.mark.parametrize(
    "token",
    [
        SLACK,
        "xoxp-" + "1234-5678-9012-abcdef0123",
        "xoxa-2-" + "abcdefghij1234",
        "xoxr-" + "abcdefghijkl",
        "xoxs-" + "1234567890-abcdef",
    ],
)
def test_slack_tokens(token: str) -> None:
    found = spans_of(token, "slack_token")
    assert found
    assert max(found, key=len) == token


def test_slack_non_token() -> None:
    assert "slack_token" not in kinds("xoxb- is a prefix; xoxz-1234567890123")


@pytest.mark.parametrize("key", [AKIA, ASIA])
def test_aws_access_key_id(key: str) -> None:
    assert spans_of(f"id {key} ok", "aws_access_key") == [key]


def test_aws_secret_key_via_plugin() -> None:
    secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    text = f'aws_secret_access_key = "{secret}"'
    assert spans_of(text, "aws_secret_key") == [secret]


def test_aws_non_key() -> None:
    assert "aws_access_key" not in kinds("AKIA is a prefix; AKIA123")


def test_jwt() -> None:
    assert spans_of(f"token {JWT} here", "jwt") == [JWT]


def test_jwt_needs_json_header_and_payload() -> None:
    assert "jwt" not in kinds("eyJhbGciOi.eyJzdWIi.abc")  # does not decode to JSON
    assert "jwt" not in kinds("eyJ alone")


# --------------------------------------------------------------------------- private keys


@pytest.mark.parametrize(
    "label",
    [
        "RSA PRIVATE KEY",
        "EC PRIVATE KEY",
        "DSA PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "PGP PRIVATE KEY BLOCK",
    ],
)
def test_private_key_block_spans_begin_to_end(label: str) -> None:
    block = f"-----BEGIN {label}-----\n{PEM_BODY}-----END {label}-----"
    text = f"before\n{block}\nafter"
    assert spans_of(text, "private_key") == [block]


def test_private_key_block_without_end_runs_to_the_end() -> None:
    text = f"x\n-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}"
    assert spans_of(text, "private_key") == [text[2:]]


def test_plugin_only_private_key_headers() -> None:
    assert "private_key" in kinds("PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none")
    assert "private_key" in kinds("----BEGIN RSA PRIVATE KEY---- (dashes mangled)")


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE-----",
        "ssh-ed25519 AAAAC3Nza user@host",
    ],
)
def test_public_material_is_not_a_private_key(text: str) -> None:
    assert "private_key" not in kinds(text)


# --------------------------------------------------------------------------- URLs and email


@pytest.mark.parametrize(
    ("text", "userinfo"),
    [
        ("https://alice:s3cr3t@example.com/x", "alice:s3cr3t"),
        ("postgres://app:p!$&()*+,;=x@db:5432/app", "app:p!$&()*+,;=x"),
        ("redis://:pw@localhost:6379", ":pw"),
        ("git clone https://bob:ghtoken@github.com/o/r.git", "bob:ghtoken"),
    ],
)
def test_url_credentials(text: str, userinfo: str) -> None:
    assert spans_of(text, "url_credentials") == [userinfo]


@pytest.mark.parametrize(
    "text", ["https://example.com:8443/path", "ssh://git@example.com/repo", "http://host:80/a@b"]
)
def test_url_without_password(text: str) -> None:
    assert "url_credentials" not in kinds(text)


@pytest.mark.parametrize(
    "email",
    ["alice@example.com", "first.last+tag@sub.example.co.uk", "x_y%z@corp-mail.io", "dev@163.com"],
)
def test_email(email: str) -> None:
    assert spans_of(f"联系 {email}。", "email") == [email]


@pytest.mark.parametrize(
    "text",
    [
        "git@github.com:owner/repo.git",
        "@property",
        "npm i pkg@1.2.3",
        "user@localhost",
        "see @alice on chat",
        "a@b.c",
    ],
)
def test_non_emails(text: str) -> None:
    assert "email" not in kinds(text)


# --------------------------------------------------------------------------- obfuscation


ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]


@pytest.mark.parametrize("zw", ZW)
@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        (GHP, "github_token"),
        (SK, "api_key"),
        (AKIA, "aws_access_key"),
        (SLACK, "slack_token"),
        ("alice@example.com", "email"),
        (JWT, "jwt"),
    ],
)
def test_zero_width_split_is_still_found(zw: str, secret: str, kind: str) -> None:
    cut = len(secret) // 2
    obfuscated = secret[:3] + zw + secret[3:cut] + zw + zw + secret[cut:]
    text = "prefix " + obfuscated + " suffix"
    spans = [s for s in find_sensitive(text) if s.kind == kind]
    assert spans, (kind, obfuscated)
    # Offsets point into the ORIGINAL text and cover the whole obfuscated secret.
    assert any(text[s.start : s.end] == obfuscated for s in spans)


# Every Default_Ignorable_Code_Point the review named (the Cf ones were already stripped).
NAMED_IGNORABLES = [
    0x034F,
    0x115F,
    0x1160,
    0x17B4,
    0x17B5,
    *range(0x180B, 0x1810),
    0x3164,
    0xFFA0,
    *range(0xFE00, 0xFE10),
    0xE0100,
    0xE0101,
    0xE0150,
    0xE01EF,
    0xE0000,
    0xE0001,
    0xE0020,
    0xE0041,
    0xE007F,
    0x00AD,
    0x200B,
    0x200E,
    0x202E,
    0x2066,
    0xFEFF,
]


def test_the_reviewed_grapheme_joiner_token_is_found() -> None:
    text = "ghp_abcdefghij\u034fklmnopqrstuvwxyz0123456789"
    assert spans_of(text, "github_token") == [text]


@pytest.mark.parametrize("cp", NAMED_IGNORABLES, ids=lambda cp: f"U+{cp:04X}")
def test_default_ignorable_split_is_still_found(cp: int) -> None:
    ch = chr(cp)
    assert is_default_ignorable(ch)
    for secret, kind in ((GHP, "github_token"), (SK, "api_key"), ("alice@example.com", "email")):
        obfuscated = secret[:4] + ch + secret[4:9] + ch + ch + secret[9:]
        text = "值 " + obfuscated + " end"
        assert spans_of(text, kind) == [obfuscated], (hex(cp), kind)
    assert spans_of(f"API{ch}_KEY=abc123", "secret_assignment") == ["abc123"]


@pytest.mark.parametrize(
    ("lo", "hi"), [(0xE0000, 0xE007F), (0xE0100, 0xE01EF), (0xFE00, 0xFE0F), (0x180B, 0x180F)]
)
def test_every_code_point_of_the_invisible_ranges_is_stripped(lo: int, hi: int) -> None:
    for cp in range(lo, hi + 1):
        token = GHP[:10] + chr(cp) + GHP[10:]
        norm, mapping = normalise_for_matching(token)
        assert norm == GHP, hex(cp)
        assert mapping == [*range(10), *range(11, len(token))]


def test_ignorable_table_matches_unicode_categories() -> None:
    # Every Cf character is stripped anyway; the table adds the Mn, Lo and unassigned ones.
    for lo, hi in DEFAULT_IGNORABLE_RANGES:
        assert lo <= hi
    starts = [lo for lo, _ in DEFAULT_IGNORABLE_RANGES]
    assert starts == sorted(starts)
    assert all(
        prev_hi < lo for (_, prev_hi), (lo, _) in itertools.pairwise(DEFAULT_IGNORABLE_RANGES)
    )
    visible = ["a", "Z", "0", "_", "中", "ｇ", "\u0301", "\u1161", "\u3165", "\ufe10", "é"]
    assert not any(is_default_ignorable(c) for c in visible)
    assert is_default_ignorable("\U000e0fff") and not is_default_ignorable("\U000e1000")


def test_nfkc_result_that_is_invisible_is_dropped_too() -> None:
    # U+3164 HANGUL FILLER and U+FFA0 normalise (NFKC) to U+1160, itself invisible.
    assert normalise_for_matching("a\u3164b\uffa0c") == ("abc", [0, 2, 4])


def test_ignorable_offsets_map_back_to_the_original() -> None:
    norm, mapping = normalise_for_matching("a\u034fb\U000e0041c\ufe0fd")
    assert norm == "abcd"
    assert mapping == [0, 2, 4, 6]


def test_zero_width_split_key_name() -> None:
    text = "API\u200b_KEY=abc123 PASS\u200dWORD=hunter2 DB_\u2060PWD=x1"
    assert spans_of(text, "secret_assignment") == ["abc123", "hunter2", "x1"]


def _fullwidth(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        (GHP, "github_token"),
        (SK, "api_key"),
        (AKIA, "aws_access_key"),
        ("bob@example.com", "email"),
    ],
)
def test_full_width_is_still_found(secret: str, kind: str) -> None:
    wide = _fullwidth(secret)
    text = "值：" + wide + "。"
    assert spans_of(text, kind) == [wide]


def test_full_width_assignment() -> None:
    text = _fullwidth("API_KEY=abc123")
    assert spans_of(text, "secret_assignment") == [_fullwidth("abc123")]


def test_ligature_maps_back_to_one_original_character() -> None:
    # U+FB01 (fi) becomes two characters when normalised; the span still fits the original.
    text = "ﬁle SECRET=val ok"
    assert spans_of(text, "secret_assignment") == ["val"]


def test_normalise_for_matching_identity_and_map() -> None:
    assert normalise_for_matching("plain ascii") == ("plain ascii", None)
    assert normalise_for_matching("中文已规范") == ("中文已规范", None)
    norm, mapping = normalise_for_matching("a\u200bＢ")
    assert norm == "aB"
    assert mapping == [0, 2]


# --------------------------------------------------------------------------- non-secrets


@pytest.mark.parametrize(
    "text",
    [
        "",
        "PWD=/home/x",
        "Use pnpm for installs; the build runs with `make all` and tests with pytest -q.",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the race",
        "request id 123e4567-e89b-12d3-a456-426614174000",
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "项目使用 pnpm 管理依赖，测试命令是 pytest -q。",
        "Tokens are counted per turn; see the tokenizer docs.",
        "The API key rotation policy lives in docs/security.md",
        "https://example.com/path?x=1#frag",
        "version 1.2.3 released on 2026-01-02",
    ],
)
def test_non_secrets(text: str) -> None:
    assert find_sensitive(text) == []
    assert not is_sensitive(text)


# --------------------------------------------------------------------------- the result shape


def test_span_shape_and_order() -> None:
    text = f"mail alice@example.com then {GHP}"
    spans = find_sensitive(text)
    assert [s.kind for s in spans] == ["email", "github_token"]
    first = spans[0]
    assert isinstance(first, SensitiveSpan)
    assert first.label == KINDS["email"]
    assert first.as_dict() == {"kind": "email", "start": 5, "end": 22, "label": "email address"}
    with pytest.raises(AttributeError):
        first.start = 0  # type: ignore[misc]
    # Labels never carry the secret.
    assert all(GHP not in s.label and "alice" not in s.label for s in spans)


def test_overlapping_kinds_are_all_reported() -> None:
    text = f"Authorization: Bearer {JWT}"
    assert {"authorization_header", "bearer_token", "jwt"} <= kinds(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_spans_are_in_bounds_for_any_text(text: str) -> None:
    for span in find_sensitive(text):
        assert 0 <= span.start < span.end <= len(text)
        assert span.kind in KINDS


@settings(max_examples=100, deadline=None)
@given(
    secret=st.sampled_from(
        [GHP, SK, AKIA, "carol@example.org", JWT, GLPAT, GOOGLE, STRIPE_LIVE, NPM]
    ),
    inserts=st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=30),
            st.sampled_from(ZW + [chr(cp) for cp in NAMED_IGNORABLES]),
        ),
        max_size=5,
    ),
    before=st.text(alphabet=" \n。，", max_size=5),
)
def test_zero_width_anywhere_property(
    secret: str, inserts: list[tuple[int, str]], before: str
) -> None:
    chars = list(secret)
    for pos, zw in inserts:
        chars.insert(min(pos, len(chars) - 1), zw)
    text = before + "".join(chars)
    assert is_sensitive(text)


# --------------------------------------------------------------------------- linear structure
# Timing is measured by bench/bench_secrets.py (100 KB vs 1 MB); here we check the structure
# that makes it linear: no backtracking repeats, and one match attempt per run.


def _walk(nodes: list[tuple[object, object]]):  # type: ignore[no-untyped-def]
    for op, av in nodes:
        yield op, av
        if op is C.SUBPATTERN:
            yield from _walk(av[3])  # type: ignore[index]
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            yield from _walk(av[2])  # type: ignore[index]
        elif op is C.BRANCH:
            for branch in av[1]:  # type: ignore[index]
                yield from _walk(branch)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            yield from _walk(av[1])  # type: ignore[index]
        elif op is C.ATOMIC_GROUP:
            yield from _walk(av)  # type: ignore[arg-type]


@pytest.mark.parametrize("pattern", OWN_PATTERNS, ids=lambda p: p.pattern[:40])
def test_no_backtracking_unbounded_repeat(pattern: re.Pattern[str]) -> None:
    for op, av in _walk(list(P.parse(pattern.pattern, pattern.flags))):
        if op in (C.MAX_REPEAT, C.MIN_REPEAT):
            assert av[1] != C.MAXREPEAT, f"unbounded backtracking repeat in {pattern.pattern!r}"  # type: ignore[index]


def _class_chars(items: list[tuple[object, object]]) -> set[str]:
    chars: set[str] = set()
    negate = False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            chars.add(chr(av))  # type: ignore[arg-type]
        elif op is C.RANGE:
            lo, hi = av  # type: ignore[misc]
            chars.update(chr(c) for c in range(lo, min(hi, 0x7F) + 1))
        else:
            raise AssertionError(f"unexpected class item {op}")
    if negate:
        return {chr(c) for c in range(0x80)} - chars
    return chars


def _first_chars(nodes: list[tuple[object, object]]) -> set[str]:
    op, av = nodes[0]
    if op in (C.MAX_REPEAT, C.POSSESSIVE_REPEAT) and av[0] == 0:  # type: ignore[index]
        # optional: it starts with its own first character or with what follows it
        return _first_chars(av[2]) | _first_chars(nodes[1:])  # type: ignore[index]
    if op is C.LITERAL:
        return {chr(av)}  # type: ignore[arg-type]
    if op is C.IN:
        return _class_chars(av)  # type: ignore[arg-type]
    if op is C.SUBPATTERN:
        return _first_chars(av[3])  # type: ignore[index]
    if op is C.BRANCH:
        return set().union(*(_first_chars(b) for b in av[1]))  # type: ignore[index]
    if op is C.AT:  # a line start inside a bounded window: what follows starts the match
        return _first_chars(nodes[1:])
    if op is C.ASSERT_NOT and av[0] == -1:  # type: ignore[index]
        return _first_chars(nodes[1:])  # a second look-behind consumes nothing
    if op in (C.MAX_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1:  # type: ignore[index]
        return _first_chars(av[2])  # type: ignore[index]
    raise AssertionError(f"cannot tell how {op} starts")


def _width(nodes: list[tuple[object, object]]) -> int | None:
    """The fixed number of characters ``nodes`` match (None when it varies)."""
    total = 0
    for op, av in nodes:
        if op in (C.LITERAL, C.IN, C.ANY):
            total += 1
        elif op is C.SUBPATTERN:
            inner = _width(av[3])  # type: ignore[index]
            if inner is None:
                return None
            total += inner
        elif op is C.BRANCH:
            widths = {_width(b) for b in av[1]}  # type: ignore[index]
            if len(widths) != 1 or None in widths:
                return None
            total += widths.pop()  # type: ignore[operator]
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, hi, body = av  # type: ignore[misc]
            inner = _width(body)
            if lo != hi or inner is None:
                return None
            total += lo * inner
        else:
            return None
    return total


def _prefix_then_lookbehind(nodes: list[tuple[object, object]]) -> bool:
    """``prefix(?<![class].{w})…`` where the prefix is ``w`` characters and starts with one of
    ``class``: the prefix cannot start inside a run (``tokens._token``)."""
    for i, (op, av) in enumerate(nodes):
        if op is C.ASSERT_NOT and av[0] == -1:  # type: ignore[index]
            width = _width(nodes[:i])
            body = av[1]  # type: ignore[index]
            if not i or width is None or body[0][0] is not C.IN or _width(body[1:]) != width:
                return False
            return _first_chars(nodes) <= _class_chars(body[0][1])
    return False


@pytest.mark.parametrize("pattern", SCANNING_PATTERNS, ids=lambda p: p.pattern[:40])
def test_scanning_pattern_starts_once_per_run(pattern: re.Pattern[str]) -> None:
    """A match can start only where a run starts: behind a look-behind that excludes the
    run's own first characters, at a literal prefix of at least three characters, or at a
    prefix followed by a look-behind that excludes a run character before the prefix."""
    nodes = list(P.parse(pattern.pattern, pattern.flags))
    if _prefix_then_lookbehind(nodes):
        return
    op, av = nodes[0]
    if op is C.ASSERT_NOT and av[0] == -1:  # type: ignore[index]
        behind = _class_chars(av[1][0][1])  # type: ignore[index]
        starts = _first_chars(nodes[1:])
        if pattern.flags & re.IGNORECASE:
            starts |= {c.swapcase() for c in starts}
        assert starts <= behind, (pattern.pattern, starts - behind)
    else:
        prefix = 0
        while prefix < len(nodes) and nodes[prefix][0] is C.LITERAL:
            prefix += 1
        branch_literal = op is C.BRANCH and all(
            len(b) >= 2 and all(o is C.LITERAL for o, _ in b[:2])
            for b in av[1]  # type: ignore[index]
        )
        assert prefix >= 3 or branch_literal, pattern.pattern


def test_pattern_tables_are_complete() -> None:
    assert set(SCANNING_PATTERNS) | set(ANCHORED_PATTERNS) | set(BOUNDED_PATTERNS) == set(
        OWN_PATTERNS
    )
    assert len(plugin_patterns()) >= 5  # detect-secrets patterns really are in use


@pytest.mark.parametrize("pattern", BOUNDED_PATTERNS, ids=lambda p: p.pattern[:40])
def test_bounded_patterns_have_a_bounded_width(pattern: re.Pattern[str]) -> None:
    """A pre-check is searched anywhere but reads at most a bounded number of characters per
    attempt (no unbounded repeat at all), so it stays linear."""
    hi = P.parse(pattern.pattern, pattern.flags).getwidth()[1]
    assert hi < 64, pattern.pattern


def test_large_adversarial_inputs_complete() -> None:
    """Not a timing test: it only shows these inputs finish and find what they should."""
    n = 200_000
    assert find_sensitive("a" * n) == []
    assert find_sensitive("@" * n) == []
    assert find_sensitive("eyJ" * (n // 3)) == []
    assert spans_of("Bearer " + "a" * n, "bearer_token") == ["a" * n]
    # Inputs that were quadratic during development (a failed attempt restarting inside the
    # run it had just read): at this size quadratic work would take minutes.
    for unit in ("a://", "a:", "a=", "A ", "aa ", "aa:", 'k: "a: ', "%41", "h:12:d:u:"):
        find_sensitive(unit * (100_000 // len(unit)))
