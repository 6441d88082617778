"""Counted messages in English say "1 file" and "2 files", never "file(s)" (terms.plural), and
both forms have the same Chinese."""

from __future__ import annotations

import pytest

from context_center.engine import Conflict, Diagnostic
from context_center.ui import i18n
from context_center.ui.widgets.memory_banners import ConflictBanner, DiagnosticsBanner


def _conflicts(n: int) -> list[Conflict]:
    return [
        Conflict(
            key="name",
            project_ref=f"project/f{i}.md",
            global_ref=f"global/f{i}.md",
            project_id=f"p{i}",
            global_id=f"g{i}",
        )
        for i in range(n)
    ]


def _diagnostics(n: int) -> list[Diagnostic]:
    return [Diagnostic(code="bad_front_matter", path=f"f{i}.md", message="m") for i in range(n)]


@pytest.mark.parametrize(
    ("n", "override", "files"),
    [
        (1, "1 project-over-global override</b>", "1 fact file could not be read</b> and is left"),
        (
            2,
            "2 project-over-global overrides</b>",
            "2 fact files could not be read</b> and are left",
        ),
    ],
)
def test_the_banners_count_in_english(qtbot, n: int, override: str, files: str) -> None:  # type: ignore[no-untyped-def]
    conflicts, diagnostics = ConflictBanner(), DiagnosticsBanner()
    qtbot.addWidget(conflicts)
    qtbot.addWidget(diagnostics)
    conflicts.show_conflicts(_conflicts(n))
    diagnostics.show_diagnostics(_diagnostics(n))
    assert override in conflicts.label.text()
    assert files in diagnostics.label.text()
    assert "(s)" not in conflicts.label.text() + diagnostics.label.text()


def test_both_forms_read_alike_in_chinese(qtbot) -> None:  # type: ignore[no-untyped-def]
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        banner = DiagnosticsBanner()
        qtbot.addWidget(banner)
        banner.show_diagnostics(_diagnostics(1))
        one = banner.label.text()
        banner.show_diagnostics(_diagnostics(2))
        assert "1 个事实文件无法读取" in one and "2 个事实文件无法读取" in banner.label.text()
    finally:
        i18n.uninstall()


def test_no_english_source_text_counts_with_a_bracketed_plural() -> None:
    """Every counted message has its two English forms (``terms.plural``), or says the number
    without one ("Files read: 3"). The only exception quotes the engine's own wording, which
    the window matches to translate it."""
    from pathlib import Path
    from xml.etree import ElementTree

    ts = Path(i18n.__file__).parent.parent / "resources" / "i18n" / "context_center_zh_CN.ts"
    sources = [
        m.findtext("source") or ""
        for m in ElementTree.parse(ts).getroot().iter("message")
        if (m.find("translation") is None or m.find("translation").get("type") != "obsolete")  # type: ignore[union-attr]
    ]
    import re

    bracketed = [s for s in sources if re.search(r"[a-z]\((s|es)\)", s)]
    assert bracketed == ["approval record {file} is damaged: {n} problem(s)"]


def test_several_overrides_are_explained_once(qtbot) -> None:  # type: ignore[no-untyped-def]
    """One override gets its own explanation; several share one after them, so the banner of
    a short window leaves room for the table (it repeated three lines per override)."""
    banner = ConflictBanner()
    qtbot.addWidget(banner)
    banner.show_conflicts(_conflicts(1))
    one = banner.label.text()
    assert one.count("In this workspace the project fact applies") == 1
    banner.show_conflicts(_conflicts(5))
    many = banner.label.text()
    assert "In this workspace the project fact applies" not in many
    assert many.count("In this workspace each project fact applies") == 1
    assert many.count("'>⚠ ") == 3 and "2 more" in many
