#!/usr/bin/env python3
"""Screenshots of every tab of the window on the ``--demo`` sample, for the README.

Run from the repository root:

    .venv/bin/python scripts/screenshots.py            # re-runs itself under xvfb-run
    .venv/bin/python scripts/screenshots.py --out DIR  # somewhere else than docs/screenshots
    .venv/bin/python scripts/screenshots.py --dark     # the dark palette (names end in -dark)
    .venv/bin/python scripts/screenshots.py --language zh_CN   # Chinese (names: <tab>-zh_CN…)

Every tab is shot at 1280×800 (``<tab>.png``) and at 900×600 (``<tab>-900x600.png``); the two
dialogs at 1280×800 only. With ``--language zh_CN`` the window runs in Chinese and the names
carry the language: ``memory-zh_CN.png``, ``memory-zh_CN-900x600.png``, ``approval-dialog-zh_CN.png``.

Without a display it re-executes itself under ``xvfb-run -a -s "-screen 0 1280x800x24"`` (a
real X server, so fonts and styles are what a desktop shows; install ``xvfb libxcb-icccm4
libxcb-keysyms1 fonts-noto-cjk`` first). Window settings go to a temporary file, never to the
real ``~/.config``. Each shot waits until the engine work it started has finished.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
XVFB_ARGS = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"]
SIZES = ((1280, 800, ""), (900, 600, "-900x600"))


def _reexec_under_xvfb() -> int:
    if shutil.which("xvfb-run") is None:
        sys.stderr.write(
            "screenshots: no display and no xvfb-run; install it with\n"
            "  apt-get install -y xvfb libxcb-icccm4 libxcb-keysyms1 fonts-noto-cjk\n"
        )
        return 1
    env = dict(os.environ, CONTEXT_CENTER_SCREENSHOTS_CHILD="1")
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.call([*XVFB_ARGS, sys.executable, *sys.argv], env=env)


def run_app(main: Callable[[], Awaitable[int]], language: str | None = None) -> int:
    """Run ``main()`` in a QApplication on a qasync loop: under xvfb-run when there is no
    display (this process then only waits for the re-run), in ``language`` when given."""
    if not os.environ.get("DISPLAY") and not os.environ.get("CONTEXT_CENTER_SCREENSHOTS_CHILD"):
        return _reexec_under_xvfb()
    os.environ.setdefault("QT_API", "pyside6")
    import qasync
    from PySide6.QtWidgets import QApplication

    from context_center.ui.launch import configure_application

    app = QApplication.instance() or QApplication(["context-center"])
    configure_application(app)
    app.setQuitOnLastWindowClosed(False)
    if language is not None:
        from context_center.ui.i18n import install

        install(language)
    return int(qasync.run(main()))


async def _settle(ctx, app, rounds: int = 3) -> None:  # type: ignore[no-untyped-def]
    """Wait until no engine work runs, several times in a row (refreshes chain)."""
    quiet = 0
    for _ in range(600):
        await asyncio.sleep(0.02)
        quiet = quiet + 1 if not ctx.has_work else 0
        if quiet >= rounds * 5:
            return


async def _wait_for(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise TimeoutError("screenshots: the expected dialog did not appear")


async def stale_edit(window, ctx, app, sample, shot) -> None:  # type: ignore[no-untyped-def]
    """Edit a fact while "another process" saves it first: the window shows what changed."""
    from context_center.engine.facade import Engine
    from context_center.ui.dialogs.fact_editor import FactEditorDialog
    from context_center.ui.dialogs.stale_edit import StaleEditDialog

    tab = window.memory_tab
    window.show_tab(tab)
    await _settle(ctx, app)
    other = Engine(home=sample.home, workspace=sample.workspace)
    other.open()
    entry = other.memory.resolve("project/customer-tone.md")
    tab.select_fact(entry.fact.id)
    tab.btn_edit.click()
    await _wait_for(lambda: isinstance(ctx.last_dialog, FactEditorDialog))
    editor = ctx.last_dialog
    other.memory.update(
        entry.fact.id,
        expected_revision=entry.fact.revision,
        body="The product owner prefers short, friendly error messages without jargon, "
        "and always a next step (“Try again”, “Contact support”).",
    )
    editor.body_edit.setPlainText(
        "The product owner prefers short, friendly error messages without jargon.\n\n"
        "报错信息要简短、友好。"
    )
    editor.save_button.click()
    await _wait_for(lambda: isinstance(ctx.last_dialog, StaleEditDialog))
    dialog = ctx.last_dialog
    dialog.resize(900, 560)
    await shot("memory-stale-edit", dialog)
    dialog.reject()
    await _settle(ctx, app)


async def _main(out: Path, dark: bool, language: str = "en") -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from context_center.demo import generate
    from context_center.engine.facade import Engine
    from context_center.ui.context import AppContext
    from context_center.ui.main_window import MainWindow

    app = QApplication.instance()
    assert app is not None
    if dark:
        from context_center.ui.style import apply_style

        apply_style(app, dark=True)  # type: ignore[arg-type]
    suffix_dark = "-dark" if dark else ""
    suffix_language = f"-{language}" if language != "en" else ""
    tmp = Path(tempfile.mkdtemp(prefix="cc-shots-"))
    try:
        sample = generate(tmp / "demo")
        ctx = AppContext(Engine(home=sample.home, workspace=sample.workspace))
        ctx.show_dialogs = False
        settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(ctx, settings)
        window.resize(*SIZES[0][:2])
        window.show()
        await _settle(ctx, app)
        out.mkdir(parents=True, exist_ok=True)
        size_suffix = ""

        async def shot(name: str, widget=None) -> None:  # type: ignore[no-untyped-def]
            await _settle(ctx, app)
            target = widget or window
            suffix = suffix_language + (size_suffix if widget is None else "") + suffix_dark
            path = out / f"{name}{suffix}.png"
            target.grab().save(str(path))
            print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

        async def memory() -> None:
            tab = window.memory_tab
            window.show_tab(tab)
            await _settle(ctx, app)
            view = ctx.engine.memory.load(persist_cache=False)
            target = next(e for e in view.project if e.fact.name == "release-branch")
            tab.select_fact(target.fact.id)

        async def instructions() -> None:
            tab = window.instructions_tab
            window.show_tab(tab)
            await _settle(ctx, app)
            # what a double-click on the rejected import's diagnostic does
            tab.diag_table.selectRow(0)
            tab._on_diag_activated(tab.diag_model.index(0, 0))

        async def prefix() -> None:
            tab = window.instructions_tab
            tab.right_tabs.setCurrentIndex(1)

        async def revisions() -> None:
            view = ctx.engine.memory.load(persist_cache=False)
            target = next(e for e in view.project if e.fact.name == "api-rate-limits")
            window.show_revisions(target.fact.id)

        async def archive() -> None:
            tab = window.archive_tab
            window.show_tab(tab)
            await _settle(ctx, app)
            for i, row in enumerate(tab.model.rows):
                if row.fact is not None and row.fact.name == "ticket-board":
                    tab.table.selectRow(i)
            tab.btn_recover.click()  # refused: the name is active again
            await _settle(ctx, app)

        async def activity() -> None:
            widget = window.activity_tab
            window.show_tab(widget)
            await _settle(ctx, app)
            message = getattr(widget, "message", None)
            button = getattr(widget, "try_button", None)
            if message is not None and button is not None:
                message.setText("发布分支从哪里切？release branch")
                button.click()

        async def by_title(title: str) -> None:
            tabs = {"Suggestions": window.suggestions_tab, "Approvals": window.approvals_tab}
            window.show_tab(tabs[title])

        async def history() -> None:
            widget = window.activity_tab
            window.show_tab(widget)
            pages = getattr(widget, "pages", None)
            if pages is not None and hasattr(widget, "history"):
                pages.setCurrentWidget(widget.history)
                await _settle(ctx, app)

        async def back_to_last_recall() -> None:
            widget = window.activity_tab
            pages = getattr(widget, "pages", None)
            if pages is not None:
                pages.setCurrentIndex(0)

        async def page(index: int) -> None:  # a tab built elsewhere (Claude Code, Connections)
            window.tabs.setCurrentIndex(index)
            await _settle(ctx, app)

        count = window.tabs.count()

        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("memory", memory),
            ("instructions", instructions),
            ("prefix", prefix),
            ("revisions", revisions),
            ("archive", archive),
            ("activity", activity),
            ("suggestions", lambda: by_title("Suggestions")),
            ("approvals", lambda: by_title("Approvals")),
            ("claude-code", lambda: page(count - 2)),
            ("connections", lambda: page(count - 1)),
        ]
        if language != "en":  # the History page of Activity (English: screenshots_history.py)
            steps.insert(6, ("history", history))
            steps.insert(7, ("activity-again", back_to_last_recall))
        for width, height, suffix_now in SIZES:
            size_suffix = suffix_now
            window.resize(width, height)
            await _settle(ctx, app)
            for name, prepare in steps:
                await prepare()
                if name != "activity-again":
                    await shot(name)
        window.resize(*SIZES[0][:2])
        await _settle(ctx, app)

        # Two dialogs worth seeing: the approval review and a stale edit.
        approvals = window.approvals_tab
        if hasattr(approvals, "review_button"):
            window.show_tab(approvals)
            await _settle(ctx, app)
            for i, record in enumerate(approvals.model.rows if hasattr(approvals, "model") else []):
                if getattr(record, "agent", "") == "nightly-triage":
                    approvals.table.selectRow(i)
            approvals.review_button.click()
            await _wait_for(lambda: getattr(approvals, "dialog", None) is not None)
            dialog = approvals.dialog
            dialog.resize(960, 720)
            await shot("approval-dialog", dialog)
            dialog.reject()
            await _settle(ctx, app)

        await stale_edit(window, ctx, app, sample, shot)
        window.close()
        await _settle(ctx, app)
        ctx.shutdown()
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--dark", action="store_true", help="the dark palette")
    parser.add_argument("--language", choices=("en", "zh_CN"), default="en")
    args = parser.parse_args()
    return run_app(lambda: _main(args.out.absolute(), args.dark, args.language), args.language)


if __name__ == "__main__":
    raise SystemExit(main())
