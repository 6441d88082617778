"""The Memory tab's two banners: project-over-global overrides, and fact files left out.

A fact file that cannot be read (bad front matter, a symlink, a file too large…) is left
untouched and out of recall; the store reports it as a diagnostic. The diagnostics banner
shows each one in the window — code, file and the store's own message, word-wrapped — so a
person can fix the file without going to the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from context_center.engine import Conflict, Diagnostic
from context_center.ui.diagnostic_text import fact_message
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.terms import plural
from context_center.ui.widgets.markdown_view import mono_spans

MAX_BANNER_CONFLICTS = 3
MAX_DIAGNOSTICS_SHOWN = 3
# Diagnostics a person can settle in the window (the sync-conflict dialog).
SYNC_CODES = frozenset({"sync_conflict_copy", "git_conflict_markers"})

TEXT = Texts(
    "MemoryBanners",
    {
        "overrides_head_one": (
            QT_TRANSLATE_NOOP(
                "MemoryBanners",
                "<b>{n} project-over-global override</b> — both facts are kept and shown; in this "
                "workspace the project one applies.",
            )
        ),
        "overrides_head": (
            QT_TRANSLATE_NOOP(
                "MemoryBanners",
                "<b>{n} project-over-global overrides</b> — both facts are kept and shown; in this "
                "workspace the project one applies.",
            )
        ),
        "override_item": QT_TRANSLATE_NOOP(
            "MemoryBanners", "{project} overrides {global_} (same <b>{key}</b>). "
        ),
        "more_overrides": QT_TRANSLATE_NOOP(
            "MemoryBanners", "…and {n} more, marked ⚠ in the table."
        ),
        "diag_head_one": (
            QT_TRANSLATE_NOOP(
                "MemoryBanners",
                "<b>{n} fact file could not be read</b> and is left out of the table and of "
                "recall. The file is not changed; fix or remove it and the table follows.",
            )
        ),
        "diag_head": (
            QT_TRANSLATE_NOOP(
                "MemoryBanners",
                "<b>{n} fact files could not be read</b> and are left out of the table and of "
                "recall. The files are not changed; fix or remove them and the table follows.",
            )
        ),
        "diag_item": QT_TRANSLATE_NOOP(
            "MemoryBanners", "<b>{code}</b> · <code>{file}</code> — {message}"
        ),
        "diag_line": QT_TRANSLATE_NOOP("MemoryBanners", "line {line}: "),
        "show_all": QT_TRANSLATE_NOOP("MemoryBanners", "Show all {n}"),
        "resolve_sync": QT_TRANSLATE_NOOP("MemoryBanners", "Resolve sync conflicts…"),
        "show_fewer": QT_TRANSLATE_NOOP("MemoryBanners", "Show fewer"),
        # Conflict.explanation(), as a translatable text (the engine's is English)
        "explanation": QT_TRANSLATE_NOOP(
            "MemoryBanners",
            "{project} and {global_} share the same {key}. In this workspace the project fact "
            "applies: recall injects only {project}, and {global_} is left out of the stable "
            "guidance. Neither file is changed; other workspaces still see {global_}.",
        ),
        "explanation_many": QT_TRANSLATE_NOOP(
            "MemoryBanners",
            "In this workspace each project fact applies: recall injects only it, and the global "
            "fact it overrides is left out of the stable guidance. No file is changed; other "
            "workspaces still see the global facts.",
        ),
        "key_name": QT_TRANSLATE_NOOP("MemoryBanners", "name"),
        "key_id": QT_TRANSLATE_NOOP("MemoryBanners", "id"),
        "key_title": QT_TRANSLATE_NOOP("MemoryBanners", "title"),
    },
)


def conflict_key(key: str) -> str:
    """The field two facts share (``Conflict.key``: "id", "name" or "title"), as shown; an
    unknown key as it is."""
    return TEXT.get(f"key_{key}", key)


def _link(fact_id: str, ref: str) -> str:
    return f"<a href='fact:{escape(fact_id)}'>{escape(ref)}</a>"


class ConflictBanner(QFrame):
    """Project facts that override a global one here; links select a fact."""

    sig_fact_link = Signal(str)
    """(fact id) a link in the banner was activated."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("conflictBanner")
        self.label = QLabel()
        self.label.setObjectName("conflictText")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextBrowserInteraction
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.label.linkActivated.connect(self._on_link)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addWidget(self.label)
        self.hide()

    def show_conflicts(self, conflicts: Sequence[Conflict]) -> None:
        if not conflicts:
            self.hide()
            return
        n = len(conflicts)
        head = plural(n, TEXT["overrides_head_one"], TEXT["overrides_head"]).format(n=n)
        items = []
        for c in conflicts[:MAX_BANNER_CONFLICTS]:
            line = TEXT["override_item"].format(
                project=_link(c.project_id, c.project_ref),
                global_=_link(c.global_id, c.global_ref),
                key=escape(conflict_key(c.key)),
            )
            explanation = ""  # several: said once, after them (a short window keeps its table)
            if n == 1:
                explanation = TEXT["explanation"].format(
                    project=c.project_ref, global_=c.global_ref, key=conflict_key(c.key)
                )
            items.append(
                f"<p style='margin-top:4px'>⚠ {line}<span class='muted'>"
                f"{escape(explanation)}</span></p>"
            )
        if n > MAX_BANNER_CONFLICTS:
            more = TEXT["more_overrides"].format(n=n - MAX_BANNER_CONFLICTS)
            items.append(f"<p style='margin-top:4px'>{more}</p>")
        if n > 1:
            many = escape(TEXT["explanation_many"])
            items.append(f"<p style='margin-top:4px'><span class='muted'>{many}</span></p>")
        self.label.setText(head + "".join(items))
        self.show()

    def _on_link(self, link: str) -> None:
        if link.startswith("fact:"):
            self.sig_fact_link.emit(link[5:])


def diagnostic_html(d: Diagnostic) -> str:
    where = f"{d.scope.value}/{d.path}" if d.scope is not None else d.path
    shown = fact_message(d.code, d.message)
    message = (TEXT["diag_line"].format(line=d.line) if d.line else "") + shown
    return mono_spans(
        TEXT["diag_item"].format(
            code=escape(d.code), file=escape(where), message=escape(" ".join(message.split()))
        )
    )


class DiagnosticsBanner(QFrame):
    """Fact files the store left out, each with its code, file and message (word-wrapped);
    sync-tool leftovers get a button that opens the sync-conflict dialog."""

    sig_resolve_sync = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("errorBanner")
        self.diagnostics: list[Diagnostic] = []
        self.expanded = False
        self.label = QLabel()
        self.label.setObjectName("diagnosticsText")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.toggle = QPushButton()
        self.toggle.setObjectName("diagnosticsToggle")
        self.toggle.setFlat(True)
        self.toggle.clicked.connect(self._on_toggle)
        self.resolve = QPushButton(TEXT["resolve_sync"])
        self.resolve.setObjectName("resolveSyncConflicts")
        self.resolve.clicked.connect(self.sig_resolve_sync)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 8, 12, 8)
        row.addWidget(self.label, 1)
        row.addWidget(self.resolve, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_diagnostics(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        if not self.diagnostics:
            self.hide()
            return
        self.resolve.setVisible(any(d.code in SYNC_CODES for d in self.diagnostics))
        self._render()
        self.show()

    def _render(self) -> None:
        n = len(self.diagnostics)
        head = plural(n, TEXT["diag_head_one"], TEXT["diag_head"]).format(n=n)
        shown = self.diagnostics if self.expanded else self.diagnostics[:MAX_DIAGNOSTICS_SHOWN]
        items = "".join(f"<li>{diagnostic_html(d)}</li>" for d in shown)
        self.label.setText(f"{head}<ul style='margin:4px 0 0 -20px'>{items}</ul>")
        hidden = n > MAX_DIAGNOSTICS_SHOWN
        self.toggle.setVisible(hidden)
        self.toggle.setText(TEXT["show_fewer"] if self.expanded else TEXT["show_all"].format(n=n))

    def _on_toggle(self) -> None:
        self.expanded = not self.expanded
        self._render()
