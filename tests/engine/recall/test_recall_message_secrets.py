"""A secret a person pastes into a turn is no search term (``terms.without_secrets``).

The sanitizer withholds a stated password or a key from every provider-visible text, but a
term list holds the value as a bare word that no scan can recognise again. So the message's
withheld spans are blanked before its terms are planned: the trace's terms and a match
reason cannot repeat it, while the rest of the message is searched as before.
"""

from __future__ import annotations

import json

import pytest
from recall_env import NOW, MakeFact

from context_center.engine.recall import Recaller
from context_center.engine.recall.terms import plan, without_secrets

KEY = "AKIAIOSFODNN7EXAMPLE"
PASSWORD_TURN = "the staging password is Qz7vLk29wPxa, why does deploy fail"


def test_a_stated_password_and_a_key_are_blanked_in_place() -> None:
    blank = without_secrets(PASSWORD_TURN)
    assert len(blank) == len(PASSWORD_TURN)
    assert "Qz7vLk29wPxa" not in blank and "deploy fail" in blank and "staging" in blank
    turn = f"deploy with {KEY} to the staging bucket"
    assert KEY not in without_secrets(turn) and without_secrets(turn).endswith("staging bucket")
    assert without_secrets("how do we cut a release branch?") == "how do we cut a release branch?"


@pytest.mark.parametrize(
    ("message", "secret"),
    [
        (PASSWORD_TURN, "qz7vlk29wpxa"),
        (f"upload with {KEY} to the staging bucket", KEY.lower()),
        ("数据库密码是 Qz7vLk29wPxa，部署失败了", "qz7vlk29wpxa"),
    ],
)
def test_the_plan_searches_the_rest_of_the_message_but_not_the_secret(
    message: str, secret: str
) -> None:
    p = plan(message)
    assert p.message == message  # the trace still names the turn as written
    assert secret not in p.terms
    assert all(secret not in a.terms for c in p.concepts for a in c.alts)
    assert p.terms  # the rest is searched


def test_a_fact_holding_the_pasted_value_is_not_matched_on_it(make_fact: MakeFact) -> None:
    facts = [
        make_fact("old-box", "Qz7vLk29wPxa was the name of the old build box.", title="Old box"),
        make_fact("deploy-notes", "Deploy fails when the staging bucket is full.", title="Deploy"),
    ]
    result = Recaller().recall(PASSWORD_TURN, facts, now=NOW)
    dumped = json.dumps(result.trace.model_dump(mode="json")).lower()
    assert "qz7vlk29wpxa" not in dumped.replace(PASSWORD_TURN.lower(), "")
    assert "qz7vlk29wpxa" not in result.block.lower()
    assert "old-box" not in [
        s.ref.split("/")[-1].removesuffix(".md") for s in result.trace.selected
    ]
