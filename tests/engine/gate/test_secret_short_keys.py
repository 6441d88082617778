"""Short credential names (``pw``, ``pwd``, ``pass``), a PIN before a Chinese verb, and a
stated password's last ``!`` or ``?``: each was shown to a model before."""

from __future__ import annotations

import pytest

from context_center.engine.gate.secrets import find_sensitive
from context_center.engine.gate.visible import withhold_secrets


def spans(text: str) -> list[tuple[str, str]]:
    return [(s.kind, text[s.start : s.end]) for s in find_sensitive(text)]


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("pw=Hunter2xyz!", "Hunter2xyz!", "secret_assignment"),
        ("pwd: Abc12345?", "Abc12345?", "secret_assignment"),
        ("db_pw = Xy7zQ2abc", "Xy7zQ2abc", "secret_assignment"),
        ("sshPw=Xy7zQ2abc", "Xy7zQ2abc", "secret_assignment"),
        ("my pass is Hunter2xyz!", "Hunter2xyz!", "stated_secret"),
        ("my pw is Hunter22", "Hunter22", "stated_secret"),
        ("the VPN pwd is Tr0ub4dor3", "Tr0ub4dor3", "stated_secret"),
        ("PIN 是 482913", "482913", "stated_secret"),
        ("银行卡 pin 为 5521", "5521", "stated_secret"),
        ("密码是：Pa55word!", "Pa55word!", "stated_secret"),
        ("口令是 Abc123xyz?", "Abc123xyz?", "stated_secret"),
    ],
)
def test_the_whole_value_is_found(text: str, value: str, kind: str) -> None:
    assert (kind, value) in spans(text), spans(text)
    shown = withhold_secrets(text)
    assert value not in shown and value[:-1] not in shown, shown


@pytest.mark.parametrize(
    "text",
    [
        "PWD=/home/ann/src/app",
        "OLDPWD=/tmp",
        "cd $PWD && make",
        "run pwd to print the folder",
        "the first pass is O(n)",
        "the test pass is required before merging",
        "pw_min_length=12",
        "upward=Abc12345x",
        "PIN: 13",
        "PIN 是 必填的",
        'pw = m["pw"]',
        "un, pw = self.passwords[netloc]",
        "token = data[0]",
        "密码是：必填",
    ],
)
def test_names_and_settings_that_are_no_secret(text: str) -> None:
    assert spans(text) == []


def test_a_chinese_sentence_end_after_a_password_is_not_kept_as_its_last_character() -> None:
    text = "测试库密码是 Passw0rd!2024，别外传。"
    assert ("stated_secret", "Passw0rd!2024") in spans(text)
