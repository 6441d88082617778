"""Recall's Why and Why not in the window's language (ui/recall_text.py): rebuilt from the
engine's forms, shown as written when a form is not known, identical in English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from context_center.engine import Engine, FactType, Scope
from context_center.ui import i18n
from context_center.ui.models.trace_models import HitsModel, SuppressionsModel
from context_center.ui.recall_text import why_not, why_selected

FORMS = [
    ("matched release, branch, release branch via 发布分支; project scope", None),
    ("matched authhandler, 6928, +3 more; global scope", None),
]
NOT_FORMS = [
    ("project_override", "an equivalent project fact overrides this global fact"),
    ("weak_match", "score under 0.35 × the best eligible match's score (relative cut)"),
    (
        "no_distinctive_match",
        "matched only 分支 via branch: one term alone must be identifier-like or rare in the "
        "store (or long, in a message of at most two terms)",
    ),
    ("superseded", "superseded by project/new-flow.md (newer, same title)"),
    (
        "side_match",
        "matched only words frequent in this store, and the message's kafka, zk is in no fact",
    ),
]


@pytest.fixture
def chinese() -> Iterator[None]:
    assert i18n.install("zh_CN") == "zh_CN"
    yield
    i18n.uninstall()


def _fixed(code: str, message: str) -> str:
    """What ``Reason.text`` is for the forms above (the message itself when it is fixed)."""
    return message if code in {"project_override", "weak_match"} else "-"


def test_in_english_every_text_is_shown_as_the_engine_wrote_it(qapp) -> None:  # type: ignore[no-untyped-def]
    for reason, _ in FORMS:
        assert why_selected(reason) == reason
    for code, message in NOT_FORMS:
        assert why_not(code, message, _fixed(code, message)) == message


def test_in_chinese_the_known_forms_are_translated(qapp, chinese) -> None:  # type: ignore[no-untyped-def]
    assert why_selected(FORMS[0][0]) == (
        "匹配了 release、branch、release branch（经由 发布分支）；项目范围"
    )
    assert why_selected(FORMS[1][0]).endswith("另 3 项；全局范围")
    shown = [why_not(code, m, _fixed(code, m)) for code, m in NOT_FORMS]
    assert shown[0] == "一条同等的项目事实覆盖了这条全局事实"
    assert shown[1] == "得分低于最佳合格匹配得分的 0.35 倍（相对截断）"
    assert shown[2].startswith("只匹配了 分支（经由 branch）：单独一个词须像标识符")
    assert shown[3] == "已被 project/new-flow.md 取代（更新；标题相同）"
    assert "kafka、zk" in shown[4]


def test_an_unknown_or_changed_form_is_shown_as_written(qapp, chinese) -> None:  # type: ignore[no-untyped-def]
    odd = "matched release; project scope, and more"
    assert why_selected(odd) == odd
    changed = "score under 0.35 × the best match (relative cut)"  # the engine's words moved on
    assert why_not("weak_match", changed, changed) == changed
    assert why_not("new_code", "something new", "something new") == "something new"


def test_a_real_trace_shows_in_chinese(qapp, chinese, home: Path, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(home=home, workspace=workspace)
    engine.create_fact(
        name="release-branch", title="Release branch", type=FactType.PROJECT,
        body="Releases are cut from release/* branches.",
    )  # fmt: skip
    engine.create_fact(
        name="release-branch", title="Release branch", type=FactType.PROJECT,
        scope=Scope.GLOBAL, body="Releases are cut from main.",
    )  # fmt: skip
    trace = engine.recall("where are release branches cut?", persist=False).trace
    hits, left = HitsModel(), SuppressionsModel()
    hits.set_hits(trace.selected, trace.block or "")
    left.set_rows(trace.suppressed)
    why = hits.index(0, 4).data()
    assert why.startswith("匹配了 ") and why.endswith("项目范围"), why
    why_not_shown = [left.index(r, 1).data() for r in range(left.rowCount())]
    assert "一条同等的项目事实覆盖了这条全局事实" in why_not_shown, why_not_shown
