"""Chinese and English (issue 19 §2): every string routed through Qt's translation system, a
complete zh_CN catalog, the window in Chinese, the language setting, ``--smoke-test``'s
``language`` and ``tabs``, and the .qm compiled from the .ts when none is packaged."""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import pkgutil
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLabel,
    QLineEdit,
    QMenu,
    QTabWidget,
    QWidget,
)

import context_center.ui
from context_center.engine.facade import Engine
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.model import FactType
from context_center.ui import i18n
from context_center.ui.i18n import CHINESE, ENGLISH, LANGUAGE_KEY, Texts
from context_center.ui.i18n_build import Message, extract, read_ts, source_files
from context_center.ui.main_window import MainWindow

TS = i18n.ts_path(CHINESE)
UI = Path(context_center.ui.__file__).resolve().parent
ZH_TABS = ["记忆", "指令", "修订", "归档", "活动", "建议", "审批", "Claude Code", "连接"]


@pytest.fixture(scope="module")
def catalog() -> list[Message]:
    return read_ts(TS)


@pytest.fixture(scope="module")
def english_sources(catalog: list[Message]) -> set[str]:
    """Sources whose Chinese differs: none of them may show in the Chinese window."""
    return {m.source for m in catalog if m.translation != m.source}


@pytest.fixture
def chinese() -> Iterator[str]:
    assert i18n.install(CHINESE) == CHINESE
    yield CHINESE
    i18n.uninstall()


# -- the catalog ---------------------------------------------------------------------------


def test_the_ts_has_no_unfinished_entry(catalog: list[Message]) -> None:
    assert len(catalog) > 500
    unfinished = [(m.context, m.source) for m in catalog if not m.finished]
    assert unfinished == []
    assert "unfinished" not in TS.read_text(encoding="utf-8")


def test_every_string_lupdate_finds_is_translated(tmp_path: Path, catalog: list[Message]) -> None:
    """lupdate over ui/ merged into a copy of the .ts: nothing new, nothing left unfinished,
    and nothing the sources no longer use (run tools/i18n_update, then translate)."""
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    extract(copy, CHINESE)
    fresh = read_ts(copy)
    missing = [(m.context, m.source) for m in fresh if not m.finished]
    assert missing == [], "untranslated (run tools/i18n_update and translate them)"
    assert {(m.context, m.source, m.disambiguation) for m in fresh} == {
        (m.context, m.source, m.disambiguation) for m in catalog
    }


def test_translations_keep_every_placeholder(catalog: list[Message]) -> None:
    placeholder = re.compile(r"\{[a-z_]+(?::[^}]*)?\}")
    english_only = {"{s}", "{are}", "{them}"}  # English plural helpers
    for m in catalog:
        need = set(placeholder.findall(m.source)) - english_only
        assert set(placeholder.findall(m.translation)) == need, (m.context, m.source)
        assert "<b>" not in m.source or "<b>" in m.translation, (m.context, m.source)


def _ui_modules() -> list[Any]:
    modules = []
    for info in pkgutil.walk_packages([str(UI)], "context_center.ui."):
        modules.append(importlib.import_module(info.name))
    return modules


def test_every_text_table_is_a_marked_texts_table(catalog: list[Message]) -> None:
    """Each module's ``TEXT`` (and every other ``Texts``) holds sources lupdate extracted
    under the table's context, each translated; a plain dict of strings named like a table
    of user strings is not allowed."""
    known = {(m.context, m.source): m for m in catalog}
    tables = 0
    for module in _ui_modules():
        for name, value in vars(module).items():
            table_name = name == "TEXT" or name.endswith(("_TEXT", "_LABELS"))
            plain = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
            if table_name and plain:
                pytest.fail(f"{module.__name__}.{name} is a plain dict: make it a Texts")
            if isinstance(value, Texts):
                tables += 1
                for key, source in value.source.items():
                    message = known.get((value.context, source))
                    assert message is not None, (module.__name__, name, key, source)
                    assert message.finished, (module.__name__, name, key)
    assert tables >= 15


# Qt calls whose string arguments people read; a literal there bypasses the translation.
_TEXT_CALLS = {
    "setText": (0,),
    "setToolTip": (0,),
    "setPlaceholderText": (0,),
    "setWindowTitle": (0,),
    "setStatusTip": (0,),
    "setInformativeText": (0,),
    "setLabelText": (0,),
    "setOkButtonText": (0,),
    "setTabText": (1,),
    "addTab": (1,),
    "insertTab": (2,),
    "addItem": (0,),
    "addMenu": (0,),
    "addRow": (0,),
    "showMessage": (0,),
    "clear_diff": (0,),
    "status": (0,),
    "confirm": (1, 2),
    "QLabel": (0,),
    "QPushButton": (0,),
    "QCheckBox": (0,),
    "QAction": (0,),
    "QToolBar": (0,),
    "tab_heading": (0,),
    "make_action": (1,),
}
_TEXT_KEYWORDS = {"informative", "ok_text", "tip", "header_tip"}
# Names and symbols that are the same in every language.
_SAME_EVERYWHERE = {"English", "中文", "MEMORY.md", "→", "Reasonix", "Claude Code", "Codex"}


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant)) or "{…}"
    return None


def _call_name(node: ast.Call) -> str:
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else ""


def test_no_user_string_literal_bypasses_the_translation() -> None:
    found = []
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = [
                node.args[i] for i in _TEXT_CALLS.get(_call_name(node), ()) if i < len(node.args)
            ]
            args += [k.value for k in node.keywords if k.arg in _TEXT_KEYWORDS]
            for arg in args:
                text = _literal(arg)
                words = re.sub(r"<[^>]*>|\{…\}", "", text or "")  # markup is not text
                if any(c.isalpha() for c in words) and text not in _SAME_EVERYWHERE:
                    found.append(f"{path.relative_to(UI)}:{node.lineno}: {text!r}")
    assert found == []


# -- the window in Chinese -------------------------------------------------------------------


def _propose(engine: Engine) -> str:
    request = {
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "operation": "create",
        "name": "deploy-notes",
        "title": "Deploy notes",
        "description": "How deploys work",
        "type": "user",
        "body": "Deploy from the release branch.",
    }
    decision = assess(request, engine.memory)
    assert decision.outcome is Outcome.QUEUED and decision.pending_id is not None
    return decision.pending_id


@pytest.fixture
def zh_window(qtbot, ctx, settings, engine: Engine, wait_idle, chinese):  # type: ignore[no-untyped-def]
    engine.memory.create(name="first", title="First fact", type=FactType.PROJECT, body="one")
    _propose(engine)
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    wait_idle()
    for i in range(win.tabs.count()):  # build every tab (the deferred ones on first show)
        win.tabs.setCurrentIndex(i)
        wait_idle()
    win.tabs.setCurrentIndex(0)
    wait_idle()
    yield win
    win._close_confirmed = True
    win.close()


def _visible_texts(root: QWidget) -> list[tuple[str, str]]:
    """(what, text) for every button, label, action, tab, header, placeholder and combo item."""
    out: list[tuple[str, str]] = []
    for button in root.findChildren(QAbstractButton):
        out.append((f"button {button.objectName()}", button.text().replace("&", "")))
        out.append((f"tooltip {button.objectName()}", button.toolTip()))
    out += [(f"label {w.objectName()}", w.text()) for w in root.findChildren(QLabel)]
    out += [
        (f"placeholder {w.objectName()}", w.placeholderText()) for w in root.findChildren(QLineEdit)
    ]
    for combo in root.findChildren(QComboBox):
        out += [(f"combo {combo.objectName()}", combo.itemText(i)) for i in range(combo.count())]
    for tabs in root.findChildren(QTabWidget):
        out += [(f"tab {tabs.objectName()}", tabs.tabText(i)) for i in range(tabs.count())]
    for view in root.findChildren(QAbstractItemView):
        model = view.model()
        if model is None:
            continue
        for col in range(model.columnCount()):
            header = model.headerData(col, Qt.Orientation.Horizontal)
            out.append((f"header {view.objectName()}", str(header or "")))
    return out


def _menu_texts(menu: QMenu) -> list[tuple[str, str]]:
    out = [(f"menu {menu.objectName()}", menu.title().replace("&", ""))]
    for action in menu.actions():
        if action.menu() is not None:
            out += _menu_texts(action.menu())  # type: ignore[arg-type]
        elif not action.isSeparator():
            out.append((f"action {action.objectName()}", action.text().replace("&", "")))
    return out


def test_the_window_starts_in_chinese(zh_window: MainWindow, english_sources: set[str]) -> None:
    window = zh_window
    assert i18n.current_language() == CHINESE
    titles = [window.tabs.tabText(i).split(" (")[0] for i in range(window.tabs.count())]
    assert titles == ZH_TABS
    texts = _visible_texts(window)
    for action in window.menuBar().actions():
        if action.menu() is not None:
            texts += _menu_texts(action.menu())  # type: ignore[arg-type]
    assert len(texts) > 150
    english = [(what, text) for what, text in texts if text.strip() in english_sources]
    assert english == []
    menus = [m.title().replace("&", "") for m in window.menus.menus]
    assert menus == ["文件(F)", "编辑(E)", "视图(V)", "帮助(H)"]
    assert window.badge.text().startswith("审批")


def test_the_approval_dialog_in_chinese(
    qtbot, zh_window: MainWindow, wait_idle, english_sources: set[str]
) -> None:  # type: ignore[no-untyped-def]
    tab = zh_window.approvals_tab
    zh_window.show_tab(tab)
    wait_idle()
    tab.table.selectRow(0)
    tab.review_button.click()
    qtbot.waitUntil(lambda: tab.dialog is not None and tab.dialog.isVisible(), timeout=5000)
    wait_idle()
    dialog = tab.dialog
    assert dialog is not None
    assert dialog.approve_button.text() == "批准" and dialog.reject_button.text() == "拒绝"
    assert dialog.meta_values["Type"].text() == "用户"  # keyed by the English source
    assert "想要创建" in dialog.findChild(QLabel, "approvalHeading").text()
    assert "需要人来确认" in dialog.reasons.text()  # the gate's reason, by its code
    english = [(w, t) for w, t in _visible_texts(dialog) if t.strip() in english_sources]
    assert english == []
    dialog.discard()


@pytest.mark.expect_ui_errors
def test_a_refusal_is_explained_by_its_code_in_chinese(ctx, chinese) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine import EngineError

    ctx.show_dialogs = True
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    error = EngineError("revision conflict on project/x.md: expected 1, found 2")
    error.code = "revision_conflict"
    ctx.report(error)
    box = ctx.last_dialog
    assert box.windowTitle() == "有人先修改了它"
    assert box.text() == "期间已保存了更新的修订版；没有覆盖任何内容。"
    # the engine's detail, in its Chinese form with the engine's ref and revisions
    assert box.informativeText() == "project/x.md 的修订版冲突：预期 1，实际 2"
    assert messages and messages[-1].startswith("有人先修改了它")
    box.close()


# -- choosing the language ---------------------------------------------------------------------


def test_the_language_follows_the_setting_the_environment_and_the_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(i18n.LANGUAGE_ENV, raising=False)
    chinese_locale = QLocale(QLocale.Language.Chinese, QLocale.Country.China)
    english_locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)
    assert i18n.resolve_language(locale=chinese_locale) == CHINESE
    assert i18n.resolve_language(locale=english_locale) == ENGLISH
    assert i18n.resolve_language(saved="system", locale=chinese_locale) == CHINESE
    assert i18n.resolve_language(saved="en", locale=chinese_locale) == ENGLISH
    assert i18n.resolve_language(saved="zh_CN", locale=english_locale) == CHINESE
    assert i18n.resolve_language("en", saved="zh_CN", locale=chinese_locale) == ENGLISH
    monkeypatch.setenv(i18n.LANGUAGE_ENV, "zh-CN")
    assert i18n.resolve_language(saved="en", locale=english_locale) == CHINESE
    assert i18n.resolve_language("en", saved="zh_CN") == ENGLISH  # --language wins


def test_switching_the_language_setting(
    qtbot, ctx, settings: QSettings, wait_idle, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(i18n.LANGUAGE_ENV, raising=False)
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    try:
        for choice, first_tab, note in (
            (CHINESE, "记忆", "语言将在 Context Center 下次启动时更改。"),
            (ENGLISH, "Memory", "The language changes when Context Center starts next."),
        ):
            window = MainWindow(ctx, settings, watch=False)
            qtbot.addWidget(window)
            menu = window.menus.language
            assert set(menu.actions) == {"system", "en", "zh_CN"}
            menu.actions[choice].trigger()
            assert settings.value(LANGUAGE_KEY) == choice
            assert menu.actions[choice].isChecked()
            assert messages[-1] == note  # said in the language chosen
            window._close_confirmed = True
            window.close()
            wait_idle()
            # the next start: the launcher installs what the setting says
            assert i18n.install_language(settings) == choice
            again = MainWindow(ctx, settings, watch=False)
            qtbot.addWidget(again)
            assert again.tabs.tabText(0) == first_tab
            assert again.menus.language.actions[choice].isChecked()
            again._close_confirmed = True
            again.close()
            wait_idle()
    finally:
        i18n.uninstall()


def test_smoke_test_reports_the_language_and_the_tabs(tmp_path: Path, cli_env) -> None:  # type: ignore[no-untyped-def]
    env = dict(cli_env, LANG="C.UTF-8", XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop(i18n.LANGUAGE_ENV, None)
    reports = {}
    for args in (["--language", "zh_CN"], []):
        result = subprocess.run(
            [sys.executable, "-m", "context_center", "--demo", "--smoke-test", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout.strip().splitlines()[-1])
        reports[report["language"]] = report["tabs"]
    assert reports["zh_CN"][0] == "记忆" and reports["zh_CN"][6].startswith("审批")
    assert [t.split(" (")[0] for t in reports["zh_CN"]] == ZH_TABS
    assert reports["en"][:3] == ["Memory", "Instructions", "Revisions"]


# -- the compiled catalog --------------------------------------------------------------------


def test_a_missing_or_stale_qm_is_compiled_into_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "i18n"
    folder.mkdir()
    ts = folder / TS.name
    shutil.copy(TS, ts)
    monkeypatch.setattr(i18n, "I18N_DIR", folder)
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(tmp_path / "cache"))
    compiled = i18n.qm_file(CHINESE)
    assert compiled is not None and compiled.parent == tmp_path / "cache" / "i18n"
    packaged = ts.with_suffix(".qm")
    shutil.copy(compiled, packaged)  # what the install builds: newer than the .ts
    assert i18n.qm_file(CHINESE) == packaged
    ts.write_text(ts.read_text(encoding="utf-8"), encoding="utf-8")  # edited after the build
    import os

    os.utime(packaged, (1, 1))
    assert i18n.qm_file(CHINESE) == compiled  # the stale packaged one is not used
    stamp = packaged.with_name(packaged.name + i18n.STAMP_SUFFIX)  # what setup.py writes
    stamp.write_text(hashlib.sha256(ts.read_bytes()).hexdigest() + "\n", encoding="ascii")
    assert i18n.qm_file(CHINESE) == packaged  # built from this very .ts, whatever the mtimes
    stamp.write_text("0" * 64 + "\n", encoding="ascii")
    assert i18n.qm_file(CHINESE) == compiled
    translator_app = QCoreApplication.instance()
    assert translator_app is not None
    try:
        assert i18n.install(CHINESE) == CHINESE
        assert QCoreApplication.translate("MainWindow", "Memory") == "记忆"
        assert i18n.translate_in(ENGLISH, "MainWindow", "Memory") == "Memory"
    finally:
        i18n.uninstall()
    assert QCoreApplication.translate("MainWindow", "Memory") == "Memory"


def test_the_repository_commits_no_qm() -> None:
    root = UI.parent.parent.parent
    tracked = subprocess.run(
        ["git", "ls-files", "*.qm"], cwd=root, capture_output=True, text=True, check=False
    )
    assert tracked.returncode != 0 or tracked.stdout.strip() == ""
    assert "*.qm" in (root / ".gitignore").read_text(encoding="utf-8")


def test_actions_of_the_menu_bar_are_translated(zh_window: MainWindow) -> None:
    names = {a.objectName(): a.text() for a in zh_window.findChildren(QAction) if a.objectName()}
    assert names["actQuit"] == "退出(&Q)"
    assert names["actLanguage_system"] == "跟随系统"
    assert names["actLanguage_zh_CN"] == "中文"


def test_chinese_labels_fit_their_buttons_at_900x600(
    qtbot, zh_window: MainWindow, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    """No button of any tab cuts its Chinese label (each at least as wide as its text)."""
    window = zh_window
    window.resize(900, 600)
    clipped = []
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        wait_idle()
        qtbot.wait(20)
        for button in window.tabs.currentWidget().findChildren(QAbstractButton):
            if not button.isVisible() or not button.text():
                continue
            need = button.fontMetrics().horizontalAdvance(button.text().replace("&", ""))
            if button.width() < need:
                clipped.append((window.tabs.tabText(i), button.text(), button.width(), need))
    assert clipped == []
