"""The toolbar's workspace picker: recent workspaces (kept in QSettings) and "Open folder…".

A workspace under one of ``transient_roots`` (the temporary ``--demo`` home) is shown while it
is open but never written to the recent list.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QComboBox, QFileDialog, QWidget

from context_center.ui.i18n import translate

RECENT_KEY = "workspaces/recent"
MAX_RECENT = 10
OPEN_FOLDER = "__open_folder__"


def _norm(path: Path | str) -> str:
    return str(Path(path).expanduser().absolute())


class WorkspacePicker(QComboBox):
    sig_workspace_chosen = Signal(str)
    """(absolute path) the person picked another workspace."""

    def __init__(
        self,
        settings: QSettings,
        parent: QWidget | None = None,
        *,
        transient_roots: tuple[Path, ...] = (),
    ) -> None:
        super().__init__(parent)
        self.setObjectName("workspacePicker")
        self.settings = settings
        self.transient_roots = tuple(Path(_norm(p)) for p in transient_roots)
        self._current = ""
        self._updating = False
        self.choose_directory = self._ask_directory  # replaced in tests
        self.activated.connect(self._on_activated)

    def recent(self) -> list[str]:
        value = self.settings.value(RECENT_KEY, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            return []
        return [str(v) for v in value if str(v)]

    def set_current(self, workspace: Path | str) -> None:
        """Show ``workspace`` as current and move it to the front of the recent list."""
        path = _norm(workspace)
        self._current = path
        if not self.is_transient(path):
            items = [path] + [p for p in self.recent() if p != path]
            self.settings.setValue(RECENT_KEY, items[:MAX_RECENT])
            self.settings.sync()
        self._rebuild()

    def is_transient(self, path: str) -> bool:
        return any(Path(path).is_relative_to(root) for root in self.transient_roots)

    def _rebuild(self) -> None:
        self._updating = True
        self.clear()
        shown = [p for p in self.recent() if not self.is_transient(p)]
        if self._current and self._current not in shown:
            shown.insert(0, self._current)
        for path in shown:
            name = Path(path).name or path
            self.addItem(f"{name}  —  {path}", path)
            self.setItemData(self.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
        self.insertSeparator(self.count())
        self.addItem(translate("WorkspacePicker", "Open folder…"), OPEN_FOLDER)
        index = self.findData(self._current)
        self.setCurrentIndex(max(index, 0))
        self._updating = False

    def _on_activated(self, index: int) -> None:
        if self._updating:
            return
        data = self.itemData(index)
        if data == OPEN_FOLDER:
            chosen = self.choose_directory()
            if not chosen:
                self.setCurrentIndex(max(self.findData(self._current), 0))
                return
            data = chosen
        if data and _norm(data) != self._current:
            self.sig_workspace_chosen.emit(_norm(data))

    def _ask_directory(self) -> str:
        return QFileDialog.getExistingDirectory(
            self, translate("WorkspacePicker", "Open workspace folder"), self._current
        )
