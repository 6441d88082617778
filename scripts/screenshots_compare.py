#!/usr/bin/env python3
"""Screenshots of the Instructions tab's Compare view and agent selector, for the README.

Run from the repository root:

    .venv/bin/python scripts/screenshots_compare.py            # re-runs itself under xvfb-run
    .venv/bin/python scripts/screenshots_compare.py --out DIR

It starts from the ``--demo`` sample, adds the files a team using three agents keeps — a
``CLAUDE.md`` holding ``@AGENTS.md``, a ``.claude/rules`` file scoped with ``paths:``, a
Codex ``config.toml`` with a small ``project_doc_max_bytes`` — and a temporary user home for
``~/.claude`` and ``~/.codex`` (never the real one). Needs what ``scripts/screenshots.py``
needs (``xvfb libxcb-icccm4 libxcb-keysyms1 fonts-noto-cjk``).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from screenshots import SIZES, _settle, run_app

ROOT = Path(__file__).resolve().parent.parent

WORKSPACE_FILES = {
    "CLAUDE.md": (
        "@AGENTS.md\n\n# Claude Code\n\n"
        "- Explain the plan before editing; the release steps are in @docs/checklist.md.\n"
    ),
    ".claude/rules/payments.md": (
        '---\npaths:\n  - "services/payments/**"\n---\n- Payments: never log card numbers.\n'
    ),
    "services/payments/CLAUDE.md": "@AGENTS.md\n",
}
USER_FILES = {
    ".claude/CLAUDE.md": "- Answer in the language of the question. 用提问的语言回答。\n",
    ".codex/AGENTS.md": "- Show the diff before applying a change.\n",
    ".codex/config.toml": "project_doc_max_bytes = 300\n",
}


def _write(base: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


async def _main(out: Path) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from context_center.demo import generate
    from context_center.engine import Engine
    from context_center.ui.context import AppContext
    from context_center.ui.main_window import MainWindow

    app = QApplication.instance()
    assert app is not None
    tmp = Path(tempfile.mkdtemp(prefix="cc-compare-shots-"))
    try:
        sample = generate(tmp / "demo")
        _write(sample.workspace, WORKSPACE_FILES)
        user = tmp / "user-home"
        _write(user, USER_FILES)
        engine = Engine(home=sample.home, workspace=sample.workspace)
        engine.user_home = user
        engine.codex_home = user / ".codex"
        engine.instruction_ceiling = tmp
        ctx = AppContext(engine)
        ctx.show_dialogs = False
        settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(ctx, settings)
        window.resize(*SIZES[0][:2])
        window.show()
        await _settle(ctx, app)
        out.mkdir(parents=True, exist_ok=True)

        async def shot(name: str) -> None:
            await _settle(ctx, app)
            path = out / f"{name}.png"
            window.grab().save(str(path))
            print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

        tab = window.instructions_tab
        window.show_tab(tab)
        await _settle(ctx, app)
        tab.set_target("services/payments")
        await _settle(ctx, app)
        tab.right_tabs.setCurrentIndex(2)  # Compare
        await _settle(ctx, app)
        await shot("instructions-compare")
        view = tab.compare_view
        view.panes.setCurrentIndex(2)  # Diff
        view.diff_a.setCurrentIndex(view.diff_a.findData("reasonix"))
        view.diff_b.setCurrentIndex(view.diff_b.findData("claude-code"))
        await shot("instructions-compare-diff")
        tab.set_agent("claude-code")
        tab.right_tabs.setCurrentIndex(1)  # Prefix preview
        await _settle(ctx, app)
        await shot("instructions-claude-code")
        window.close()
        await asyncio.sleep(0.1)
        ctx.shutdown()
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    return run_app(lambda: _main(args.out.absolute()))


if __name__ == "__main__":
    raise SystemExit(main())
