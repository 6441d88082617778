#!/usr/bin/env python3
"""Screenshots of the History page (Activity tab), the Memory table's context menu and the
Instructions tab's missing-folder banner, on the ``--demo`` sample after a few changes.

Run from the repository root:

    .venv/bin/python scripts/screenshots_history.py            # re-runs itself under xvfb-run
    .venv/bin/python scripts/screenshots_history.py --out DIR  # somewhere else

Before shooting it changes the sample the way a person would in the window: a fact's type, a
fact promoted to global, a rename, an agent's write approved and another rejected, so the
History page shows each kind of row. Writes ``history.png`` and ``history-900x600.png``,
``memory-context-menu.png`` and ``instructions-missing-target.png``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from screenshots import ROOT, SIZES, _settle, run_app


def _changes(engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine import FactType, Scope

    view = engine.open()
    facts = {e.fact.name: e.fact for e in view.project}
    first = sorted(facts)[0]
    fact = facts[first]
    engine.update_fact(fact.id, expected_revision=fact.revision, type=FactType.REFERENCE)
    second = facts[sorted(facts)[1]]
    engine.rescope_fact(second.id, Scope.GLOBAL, expected_revision=second.revision)
    third = facts[sorted(facts)[2]]
    engine.update_fact(third.id, expected_revision=third.revision, name=f"{third.name}-notes")
    pending = engine.pending_approvals(this_workspace=True)
    if pending:
        try:
            engine.approve(pending[0].id)
        except Exception:  # a conflicting sample item: reject it instead
            engine.reject(pending[0].id, "conflicts with the store")
    if len(pending) > 1:
        engine.reject(pending[1].id, "not a lasting preference")


async def _main(out: Path) -> int:
    from PySide6.QtCore import QPoint, QSettings
    from PySide6.QtWidgets import QApplication

    from context_center.demo import generate
    from context_center.engine.facade import Engine
    from context_center.ui.context import AppContext
    from context_center.ui.main_window import MainWindow
    from context_center.ui.tabs.memory_bulk import bulk_of

    app = QApplication.instance()
    assert app is not None
    tmp = Path(tempfile.mkdtemp(prefix="cc-shots-"))
    try:
        sample = generate(tmp / "demo")
        engine = Engine(home=sample.home, workspace=sample.workspace)
        _changes(engine)
        ctx = AppContext(Engine(home=sample.home, workspace=sample.workspace))
        ctx.show_dialogs = False
        settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(ctx, settings)
        window.show()
        out.mkdir(parents=True, exist_ok=True)

        def save(widget, name: str) -> None:  # type: ignore[no-untyped-def]
            path = out / f"{name}.png"
            widget.grab().save(str(path))
            print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

        activity = window.activity_tab
        for width, height, suffix in SIZES:
            window.resize(width, height)
            window.show_tab(activity)
            activity.pages.setCurrentWidget(activity.history)
            await _settle(ctx, app)
            activity.history.table.selectRow(0)
            await _settle(ctx, app)
            save(window, f"history{suffix}")

        window.resize(*SIZES[0][:2])
        memory = window.memory_tab
        window.show_tab(memory)
        await _settle(ctx, app)
        memory.table.selectRow(1)
        bulk = bulk_of(memory)
        bulk.update_actions()
        menu = bulk.build_menu()
        rect = memory.table.visualRect(memory.model.index(1, 1))
        menu.popup(memory.table.viewport().mapToGlobal(rect.center() + QPoint(20, 0)))
        await _settle(ctx, app)
        pixmap = window.grab()
        painter_target = menu.grab()
        from PySide6.QtGui import QPainter

        painter = QPainter(pixmap)
        where = window.mapFromGlobal(menu.pos())
        painter.drawPixmap(where, painter_target)
        painter.end()
        path = out / "memory-context-menu.png"
        pixmap.save(str(path))
        print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        menu.close()

        instructions = window.instructions_tab
        window.show_tab(instructions)
        await _settle(ctx, app)
        instructions.set_target("services/does-not-exist")
        await _settle(ctx, app)
        save(window, "instructions-missing-target")

        window._close_confirmed = True
        window.close()
        await _settle(ctx, app)
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
