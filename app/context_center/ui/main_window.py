"""The main window: composition only. Menu bar, tabs, toolbar (workspace picker, approvals
badge), status bar.

Every signal between parts is connected here, and nothing else: the tabs talk to the engine
through the shared ``AppContext``, the watcher feeds ``sig_changed``, and this class only routes
("show revisions of this fact" → Revisions tab; badge click → Approvals tab).

Nothing typed is lost: closing the window (the close button, Quit) and switching workspace
first ask every tab ``has_unsaved_changes()`` and await ``discard_or_keep()`` of each that has
some (``tabs.base.Tab``). ``force_close()`` (SIGTERM, Ctrl+C in the terminal) closes without
asking. The title is "<workspace> — Context Center": Qt appends the application's display
name to a title that does not already end with it, so the name appears once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center import APP_DISPLAY_NAME
from context_center.engine import Changes, Engine
from context_center.ui.context import APPROVALS, WORKSPACE, AppContext
from context_center.ui.i18n import QT_TRANSLATE_NOOP, lookup, translate
from context_center.ui.menus import WindowMenus
from context_center.ui.tabs.approvals import ApprovalsTab
from context_center.ui.tabs.archive import ArchiveTab
from context_center.ui.tabs.claude_memory import ClaudeMemoryTab
from context_center.ui.tabs.instructions import InstructionsTab
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.tabs.revisions import RevisionsTab
from context_center.ui.watcher import ChangeWatcher
from context_center.ui.widgets.tray_notifier import ApprovalNotifier
from context_center.ui.widgets.undo_offer import UndoOffer
from context_center.ui.widgets.workspace_picker import WorkspacePicker

log = logging.getLogger(__name__)


class DeferredTab(QWidget):
    """A tab page whose real widget is built the first time the page is shown.

    The Activity and Suggestions tabs pull in the recall index (numpy) and the transcript
    readers; building them on first use keeps them off the path to a usable Memory table.
    """

    def __init__(self, title: str, factory: Callable[[], QWidget]) -> None:
        super().__init__()
        self.title = title  # the English source (object names); shown as lookup(...)
        self.setObjectName(f"deferred{title}")
        self._factory = factory
        self.widget: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    def materialise(self) -> QWidget:
        if self.widget is None:
            self.widget = self._factory()
            layout = self.layout()
            assert layout is not None
            layout.addWidget(self.widget)
        return self.widget

    def showEvent(self, event: QShowEvent) -> None:
        self.materialise()
        super().showEvent(event)


def _activity_tab(ctx: AppContext, show_fact: Callable[[str], None]) -> QWidget:
    from context_center.ui.tabs.activity import ActivityTab

    tab = ActivityTab(ctx)
    tab.sig_show_fact.connect(show_fact)
    return tab


def _suggestions_tab(ctx: AppContext) -> QWidget:
    from context_center.ui.tabs.suggestions import SuggestionsTab

    return SuggestionsTab(ctx)


def _connections_tab(ctx: AppContext) -> QWidget:
    from context_center.ui.tabs.connections import ConnectionsTab

    return ConnectionsTab(ctx)


def count_pending(engine: Engine) -> int:
    """Pending approvals in this home (every workspace's writes need a person)."""
    return len(engine.pending_approvals())


class MainWindow(QMainWindow):
    sig_closed = Signal()
    """The window was closed (the launcher ends the event loop)."""

    def __init__(
        self,
        ctx: AppContext,
        settings: QSettings,
        parent: QWidget | None = None,
        *,
        watch: bool = True,
        transient_roots: tuple[Path, ...] = (),
    ) -> None:
        """``transient_roots``: folders (the ``--demo`` home) whose workspaces are never added
        to the recent list."""
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.ctx = ctx
        self.settings = settings
        self.transient_roots = transient_roots
        ctx.dialog_parent = self
        self.pending_count = 0
        self._close_confirmed = False
        self._asking = False

        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.tabs.setDocumentMode(True)
        self.memory_tab = MemoryTab(ctx)
        self.instructions_tab = InstructionsTab(ctx)
        self.revisions_tab = RevisionsTab(ctx)
        self.archive_tab = ArchiveTab(ctx)
        self._pages: dict[QWidget, QWidget] = {}
        self._add_page(self.memory_tab, self.memory_tab.title)
        self._add_page(self.instructions_tab, self.instructions_tab.title)
        for tab in (self.revisions_tab, self.archive_tab):
            self._add_page(tab, tab.title)
        self.activity_page = DeferredTab(
            QT_TRANSLATE_NOOP("MainWindow", "Activity"), lambda: _activity_tab(ctx, self.show_fact)
        )
        self.suggestions_page = DeferredTab(
            QT_TRANSLATE_NOOP("MainWindow", "Suggestions"), lambda: _suggestions_tab(ctx)
        )
        self.approvals_tab = ApprovalsTab(ctx)  # built at once: it keeps the badge count
        for page in (self.activity_page, self.suggestions_page):
            self._add_page(page, page.title)
        self._add_page(self.approvals_tab, self.approvals_tab.title)
        self.claude_tab = ClaudeMemoryTab(ctx)
        self._add_page(self.claude_tab, ClaudeMemoryTab.title)
        self.connections_page = DeferredTab(
            QT_TRANSLATE_NOOP("MainWindow", "Connections"), lambda: _connections_tab(ctx)
        )
        self._add_page(self.connections_page, self.connections_page.title)
        self.setCentralWidget(self.tabs)

        self._build_toolbar()
        self._build_statusbar()
        self.menus = WindowMenus(self)
        self._connect()

        self.watcher = ChangeWatcher(ctx, self)
        if watch:
            self.watcher.start()
        self._show_engine(ctx.engine)
        self.resize(1280, 800)
        self._restore_geometry()

    # -- composition ----------------------------------------------------------------------

    def _add_page(self, widget: QWidget, title: str, *, scroll: bool = False) -> None:
        """A tab page. The tabs built here fit 900×600 and lay out to the window's size, so
        nothing they show is below a fold and no scroll bar nests in another; a tab built
        elsewhere may sit in a scroll area instead (``scroll``). ``title`` is the English
        source (``QT_TRANSLATE_NOOP("MainWindow", …)``); the tab shows its translation."""
        page = widget
        if scroll:
            area = QScrollArea()
            area.setObjectName(f"page{title}")
            area.setWidgetResizable(True)
            area.setFrameShape(QFrame.Shape.NoFrame)
            area.setWidget(widget)
            page = area
        self._pages[widget] = page
        self.tabs.addTab(page, lookup("MainWindow", title))

    def show_tab(self, widget: QWidget) -> None:
        for page in (self.activity_page, self.suggestions_page, self.connections_page):
            if page.widget is widget:
                widget = page
        self.tabs.setCurrentWidget(self._pages.get(widget, widget))

    def _page_tab(self, page: QWidget | None) -> QWidget | None:
        inner = page.widget() if isinstance(page, QScrollArea) else page
        return inner.materialise() if isinstance(inner, DeferredTab) else inner

    def current_tab(self) -> QWidget | None:
        return self._page_tab(self.tabs.currentWidget())

    def built_tabs(self) -> list[QWidget]:
        """Every tab widget built so far (a deferred tab not shown yet holds nothing)."""
        out = []
        for i in range(self.tabs.count()):
            page = self.tabs.widget(i)
            inner = page.widget() if isinstance(page, QScrollArea) else page
            tab = inner.widget if isinstance(inner, DeferredTab) else inner
            if tab is not None:
                out.append(tab)
        return out

    def focus_search(self) -> None:
        """Ctrl+F: the current tab's search box, else the Memory tab's."""
        tab = self.current_tab()
        focus = getattr(tab, "focus_search", None)
        if callable(focus):
            focus()
            return
        search = getattr(tab, "search", None)
        if isinstance(search, QLineEdit):
            search.setFocus(Qt.FocusReason.ShortcutFocusReason)
            search.selectAll()
            return
        self.show_tab(self.memory_tab)
        self.memory_tab.focus_search()

    @property
    def activity_tab(self) -> QWidget:
        return self.activity_page.materialise()

    @property
    def suggestions_tab(self) -> QWidget:
        return self.suggestions_page.materialise()

    def _build_toolbar(self) -> None:
        bar = QToolBar(translate("MainWindow", "Workspace"))
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setFloatable(False)
        caption = QLabel(translate("MainWindow", "Workspace"))
        caption.setObjectName("toolbarCaption")
        bar.addWidget(caption)
        self.picker = WorkspacePicker(self.settings, transient_roots=self.transient_roots)
        self.picker.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.picker.setMaximumWidth(640)
        bar.addWidget(self.picker)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        self.badge = QToolButton()
        self.badge.setObjectName("approvalsBadge")
        self.badge.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.badge.setCursor(Qt.CursorShape.PointingHandCursor)
        bar.addWidget(self.badge)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self._set_pending(0)

    def _build_statusbar(self) -> None:
        status = self.statusBar()
        self.home_label = QLabel()
        self.home_label.setObjectName("homeLabel")
        self.busy_label = QLabel("")
        self.busy_label.setObjectName("busyLabel")
        self.undo_offer = UndoOffer(self.ctx)
        status.addPermanentWidget(self.undo_offer)
        status.addPermanentWidget(self.busy_label)
        status.addPermanentWidget(self.home_label)

    def _connect(self) -> None:
        ctx = self.ctx
        ctx.sig_status.connect(lambda text: self.statusBar().showMessage(text, 8000))
        # a message is about the tab it came from: another tab does not go on showing it
        self.tabs.currentChanged.connect(lambda _index: self.statusBar().clearMessage())
        ctx.sig_busy.connect(
            lambda busy: self.busy_label.setText(
                translate("MainWindow", "Working…") if busy else ""
            )
        )
        ctx.sig_changed.connect(self._on_changed)
        ctx.sig_engine_changed.connect(self._show_engine)
        self.picker.sig_workspace_chosen.connect(self._on_workspace_chosen)
        self.badge.clicked.connect(lambda: self.show_tab(self.approvals_tab))
        self.memory_tab.sig_show_revisions.connect(self.show_revisions)
        self.approvals_tab.sig_pending_count.connect(self._set_pending)
        self.notifier = ApprovalNotifier(self, self.windowIcon(), self._show_approvals)
        self.approvals_tab.sig_pending_count.connect(self.notifier.on_pending_count)

    # -- behaviour ------------------------------------------------------------------------

    def _show_engine(self, engine: Engine) -> None:
        self.picker.set_current(engine.workspace)
        self.setWindowTitle(f"{engine.workspace.name or engine.workspace} — {APP_DISPLAY_NAME}")
        self.home_label.setText(translate("MainWindow", "Home: {home}").format(home=engine.home))
        self.home_label.setToolTip(str(engine.home))
        self._refresh_badge()

    def switch_workspace(self, path: str) -> None:
        """Switch now (the caller has asked about unsaved text; see ``_on_workspace_chosen``)."""
        engine = Engine(home=self.ctx.engine.home, workspace=Path(path))
        self.ctx.set_engine(engine)
        self.ctx.status(translate("MainWindow", "Workspace: {path}").format(path=engine.workspace))

    @asyncSlot(str)
    async def _on_workspace_chosen(self, path: str) -> None:
        if await self.confirm_leave():
            self.switch_workspace(path)
        else:
            self.picker.set_current(self.ctx.engine.workspace)

    # -- unsaved text ---------------------------------------------------------------------

    def unsaved_tabs(self) -> list[QWidget]:
        out = []
        for tab in self.built_tabs():
            ask = getattr(tab, "has_unsaved_changes", None)
            if callable(ask) and ask():
                out.append(tab)
        return out

    async def confirm_leave(self) -> bool:
        """Ask each tab with unsaved text (shown in turn); True when all may go."""
        if self._asking:
            return False
        self._asking = True
        try:
            for tab in self.unsaved_tabs():
                self.show_tab(tab)
                if not await tab.discard_or_keep():  # type: ignore[attr-defined]
                    return False
            return True
        finally:
            self._asking = False

    @asyncSlot()
    async def _close_after_asking(self) -> None:
        if await self.confirm_leave():
            self._close_confirmed = True
            self.close()

    def force_close(self) -> None:
        """Close without asking (a signal asked the process to end)."""
        self._close_confirmed = True
        self.close()

    def _show_approvals(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()
        self.show_tab(self.approvals_tab)

    def show_fact(self, fact_id: str) -> None:
        """The Memory tab with ``fact_id`` selected (filters cleared if they hide it)."""
        self.show_tab(self.memory_tab)
        self.memory_tab.reveal_fact(fact_id)

    def show_revisions(self, fact_id: str) -> None:
        self.show_tab(self.revisions_tab)
        self.revisions_tab.show_fact(fact_id)

    def _on_changed(self, changes: Changes[object], _source: object) -> None:
        if changes.areas & {APPROVALS, WORKSPACE}:
            self._refresh_badge()

    @asyncSlot()
    async def _refresh_badge(self) -> None:
        try:
            count = await self.ctx.run(count_pending, self.ctx.engine)
        except Exception as exc:  # the queue being unreadable is worth one dialog
            self.ctx.report(exc, self)
            return
        self._set_pending(count)

    def _set_pending(self, count: int) -> None:
        self.pending_count = count
        title = lookup("MainWindow", self.approvals_tab.title)
        self.badge.setText(f"{title}  {count}" if count else title)
        if count == 1:
            tip = translate("MainWindow", "1 agent write waiting for your decision")
        elif count:
            tip = translate("MainWindow", "{n} agent writes waiting for your decision")
        else:
            tip = translate("MainWindow", "No agent writes are waiting")
        self.badge.setToolTip(tip.format(n=count))
        self.badge.setProperty("pending", bool(count))
        self.badge.style().unpolish(self.badge)
        self.badge.style().polish(self.badge)
        index = self.tabs.indexOf(self._pages.get(self.approvals_tab, self.approvals_tab))
        if index >= 0:
            self.tabs.setTabText(index, f"{title} ({count})" if count else title)

    def _restore_geometry(self) -> None:
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._close_confirmed and self.unsaved_tabs():
            event.ignore()
            if not self._asking:
                self._close_after_asking()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.sync()
        self.watcher.stop()
        self.ctx.phrase_index.stop()
        super().closeEvent(event)
        self.sig_closed.emit()
