"""More ways prose states a password: a colon after the words that name what it is for, a
change ("was changed to"), "remains", an arrow, "use X as the password", and 密码 with the
value written right after it. Each was shown to a model before."""

from __future__ import annotations

import pytest

from context_center.engine.gate.secrets import find_sensitive


def stated(text: str) -> list[str]:
    return [text[s.start : s.end] for s in find_sensitive(text) if s.kind == "stated_secret"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Gizmotron: password for the prod db: Hunter2xyz! Keep it.", "Hunter2xyz!"),
        ("the password was changed to Tr0ub4dor9", "Tr0ub4dor9"),
        ("the admin password remains Xy7zQ2abc", "Xy7zQ2abc"),
        ("staging password -> Hunter22xy", "Hunter22xy"),
        ("Use Hunter3xyz! as the password.", "Hunter3xyz!"),
        ("using Hunter22xy as the root password", "Hunter22xy"),
        ("用户名admin，密码Pa55word!", "Pa55word!"),
        ("口令Abc123xyz，别外传", "Abc123xyz"),
    ],
)
def test_the_value_is_found(text: str, value: str) -> None:
    assert value in stated(text), find_sensitive(text)


@pytest.mark.parametrize(
    "text",
    [
        "Password for the account: see the vault.",
        "Authorization: Bearer $TOKEN is a placeholder.",
        "Send Authorization: Bearer <token> with each request.",
        "The Authorization: header carries the bearer token.",
        "the password was changed to argon2 hashing",
        "tokenizer: cl100k_base",
        "token_encoding: o200k_base and token_storage: redis",
        "password_encryption = scram-sha-256; password_scheme: pbkdf2_sha256",
        "The sequence of arguments to pass to :py:class:`subprocess.Popen2`, and more.",
        "unless the key names the credential itself: `password_min_length=12`, and more",
        "password for user: admin",
        "the password was changed yesterday",
        "We use bcrypt as the password hash.",
        "use pytest as the test runner; the token is required",
        "密码Hash用bcrypt",
        "密码长度至少 12 位",
    ],
)
def test_prose_about_passwords_is_no_secret(text: str) -> None:
    assert find_sensitive(text) == []


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ("DATABASE_URL=postgres://app:Zx9HYSmMwOZ#@db.internal:5432/app", "Zx9HYSmMwOZ#"),
        ("postgres://app:Zx9vwf/RE5e3@db/x", "Zx9vwf/RE5e3"),
        ("postgres://app:Zx9vwfRE5e3?@db", "Zx9vwfRE5e3?"),
        ("postgres://app:p@ss@db", "p@ss"),
    ],
)
def test_a_url_password_with_unescaped_characters_is_withheld_whole(
    text: str, password: str
) -> None:
    from context_center.engine.gate.visible import withhold_secrets

    shown = withhold_secrets(text)
    assert password not in shown and password[1:] not in shown, shown
    assert "@db" in shown  # the host stays


@pytest.mark.parametrize(
    "text", ["see https://github.com/a/b@v1", "http://host:80/x@y", "http://host:8080/"]
)
def test_ports_and_paths_with_an_at_are_no_url_password(text: str) -> None:
    assert find_sensitive(text) == []


AKID = "AK" + "IA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "HJyHldAhIIDrxKYjeD3/" + "RXbtI0EU18ceo8U6jaVU"


@pytest.mark.parametrize(
    "text",
    [
        f"Access key ID,Secret access key\n{AKID},{AWS_SECRET}",  # the console's CSV
        f"{AKID}:{AWS_SECRET}",
        f"aws {AKID} {AWS_SECRET}",
    ],
)
def test_the_secret_half_of_an_aws_key_pair_is_withheld(text: str) -> None:
    from context_center.engine.gate.visible import withhold_secrets

    assert AWS_SECRET not in withhold_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "see the sk-learn-compatible-estimators-guide",
        "pip install sk-video-processing-toolkit2",
        "rk-tools-for-benchmarking-latency-v2",
        "branch feature/sk-1234-fix-login-flow",
        "Slack channel #sk-platform-alerts",
        "task-sk-ribbon-component-v12345",
    ],
)
def test_hyphenated_names_after_sk_or_rk_are_no_keys(text: str) -> None:
    assert find_sensitive(text) == []
