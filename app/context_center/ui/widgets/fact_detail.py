"""The Memory tab's detail pane: one fact's title, meta line, body and provenance.

Every part is reachable by keyboard (the buttons, the body, the provenance fields, whose text
can be selected and copied with the keyboard). Times are local, like the table's, and the
label names the zone. The provenance folds away (its caption is a toggle); in a short pane
(a 600 px window) it starts folded so the body keeps its room, until the person toggles it.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Conflict, format_time
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.models.facts import (
    FactRow,
    freshness_colour,
    local_time_seconds,
    utc_offset,
)
from context_center.ui.style import follow_scheme, tone
from context_center.ui.terms import freshness_label, scope_label, type_label
from context_center.ui.widgets.bare_links import render_with_links
from context_center.ui.widgets.elided import ElidedLabel
from context_center.ui.widgets.markdown_view import SafeBrowser
from context_center.ui.widgets.memory_banners import conflict_key

TEXT = Texts(
    "FactDetail",
    {
        "reference": QT_TRANSLATE_NOOP("FactDetail", "Reference"),
        "id": QT_TRANSLATE_NOOP("FactDetail", "ID"),
        "revision": QT_TRANSLATE_NOOP("FactDetail", "Revision"),
        "times": QT_TRANSLATE_NOOP("FactDetail", "Created / updated\n(local, {offset})"),
        "stored": QT_TRANSLATE_NOOP("FactDetail", "Stored at"),
        "provenance": QT_TRANSLATE_NOOP("FactDetail", "Provenance"),
        "copy": QT_TRANSLATE_NOOP("FactDetail", "Copy"),
        "copy_tip": QT_TRANSLATE_NOOP("FactDetail", "Copy the {what} to the clipboard"),
        "copied": QT_TRANSLATE_NOOP("FactDetail", "Copied {what}"),
        "what_ref": QT_TRANSLATE_NOOP("FactDetail", "reference"),
        "what_id": QT_TRANSLATE_NOOP("FactDetail", "ID"),
        "what_path": QT_TRANSLATE_NOOP("FactDetail", "path"),
        "none_title": QT_TRANSLATE_NOOP("FactDetail", "No fact selected"),
        "none_body": (
            QT_TRANSLATE_NOOP(
                "FactDetail",
                "Select a fact to see its body and where it comes from, or create one with "
                "<b>New fact…</b> (Ctrl+N).",
            )
        ),
        "loading_title": QT_TRANSLATE_NOOP("FactDetail", "Loading facts…"),
        "loading_body": QT_TRANSLATE_NOOP(
            "FactDetail",
            "Reading the memory stores. The list fills in as soon as they are read; a large "
            "home can take a few seconds the first time.",
        ),
        "empty_title": QT_TRANSLATE_NOOP("FactDetail", "No facts yet"),
        "empty_body": (
            QT_TRANSLATE_NOOP(
                "FactDetail",
                "No facts yet — press <b>Ctrl+N</b> to write one, or accept a suggestion in the "
                "<b>Suggestions</b> tab. Facts you or an agent save appear here.",
            )
        ),
        "meta": QT_TRANSLATE_NOOP("FactDetail", "type: {type} · scope: {scope}"),
        "meta_revision": QT_TRANSLATE_NOOP("FactDetail", " · revision {revision}"),
        "times_tip": QT_TRANSLATE_NOOP("FactDetail", "In UTC: {created} / {updated}"),
        "overrides": QT_TRANSLATE_NOOP(
            "FactDetail", "⚠ Overrides {ref} here (same {key}); recall uses this fact."
        ),
        "overridden": (
            QT_TRANSLATE_NOOP(
                "FactDetail",
                "⚠ Overridden here by {ref} (same {key}); other workspaces still use this fact.",
            )
        ),
    },
)

FOLD_BELOW = 430  # pane height (px) under which the provenance starts folded
PROVENANCE_SPACING = 4  # px between the provenance's toggle, fields and ⚠ line

_KEYBOARD_SELECTABLE = (
    Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
)


class FactDetail(QFrame):
    """Shows one fact (or the empty state); ``buttons`` sit beside the title."""

    sig_copied = Signal(str)
    """(message) a provenance field was copied to the clipboard."""

    def __init__(self, buttons: Iterable[QPushButton]) -> None:
        super().__init__()
        self.setObjectName("detailPane")
        self.buttons = list(buttons)
        self.detail_title = QLabel()
        self.detail_title.setObjectName("detailTitle")
        self.detail_title.setWordWrap(True)
        self.detail_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_meta = QLabel()
        self.detail_meta.setObjectName("detailMeta")
        self.detail_meta.setTextFormat(Qt.TextFormat.RichText)
        self.detail_meta.setWordWrap(True)
        self._meta_row: FactRow | None = None  # whose line ``detail_meta`` shows
        follow_scheme(self._restyle)
        self.detail_desc = QLabel()
        self.detail_desc.setObjectName("detailDescription")
        self.detail_desc.setWordWrap(True)
        self.body_view = SafeBrowser()
        self.body_view.setObjectName("factBody")
        self.body_view.setMinimumHeight(60)
        self.body_view.setTabChangesFocus(True)

        self.copy_buttons: list[QToolButton] = []
        self.prov_id = self._ro_field("provId")
        self.prov_ref = self._ro_field("provRef")
        self.prov_path = self._ro_field("provPath")
        self.prov_revision = QLabel()
        self.prov_revision.setObjectName("provRevision")
        self.prov_times = QLabel()
        self.prov_times.setObjectName("provTimes")
        self.prov_times.setWordWrap(True)
        self.prov_times.setTextInteractionFlags(_KEYBOARD_SELECTABLE)
        self.prov_override = QLabel()
        self.prov_override.setObjectName("provOverride")
        self.prov_override.setWordWrap(True)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setHorizontalSpacing(12)
        form.setVerticalSpacing(4)
        form.addRow(TEXT["reference"], self._with_copy(self.prov_ref, "copyRef", "what_ref"))
        form.addRow(TEXT["id"], self._with_copy(self.prov_id, "copyId", "what_id"))
        form.addRow(TEXT["revision"], self.prov_revision)
        self.times_caption = QLabel(TEXT["times"].format(offset=utc_offset()))
        form.addRow(self.times_caption, self.prov_times)
        form.addRow(TEXT["stored"], self._with_copy(self.prov_path, "copyPath", "what_path"))
        self.prov_box = QFrame()
        self.prov_box.setObjectName("provenance")
        prov_layout = QVBoxLayout(self.prov_box)
        prov_layout.setContentsMargins(10, 6, 10, 6)
        prov_layout.setSpacing(PROVENANCE_SPACING)
        self.prov_toggle = QToolButton()
        self.prov_toggle.setObjectName("provenanceToggle")
        self.prov_toggle.setText(TEXT["provenance"])
        self.prov_toggle.setCheckable(True)
        self.prov_toggle.setChecked(True)
        self.prov_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.prov_toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.prov_toggle.setAutoRaise(True)
        self.prov_toggle.clicked.connect(self._on_toggle)
        self._prov_chosen = False  # the person toggled it: no more automatic folding
        self.prov_fields = QWidget()
        self.prov_fields.setLayout(form)
        form.setContentsMargins(0, 0, 0, 0)
        prov_layout.addWidget(self.prov_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        prov_layout.addWidget(self.prov_fields)
        prov_layout.addWidget(self.prov_override)

        header = QHBoxLayout()
        header.setSpacing(6)
        header.addWidget(self.detail_title, 1, Qt.AlignmentFlag.AlignTop)
        for button in self.buttons:
            header.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.setSpacing(6)
        layout.addLayout(header)
        layout.addWidget(self.detail_meta)
        layout.addWidget(self.detail_desc)
        layout.addWidget(self.body_view, 1)
        layout.addWidget(self.prov_box)

    def _on_toggle(self, checked: bool) -> None:
        self._prov_chosen = True
        self.set_provenance_open(checked)
        self.updateGeometry()  # the minimum now counts the fields the person opened

    def minimumSizeHint(self) -> QSize:
        """As small as with the provenance folded while it folds by itself: fields opened in
        a tall window must not hold the window above 900×600 (the resize that folds them
        could never happen)."""
        hint = super().minimumSizeHint()
        if not self._prov_chosen and not self.prov_fields.isHidden():
            folded = self.prov_fields.minimumSizeHint().height() + PROVENANCE_SPACING
            hint.setHeight(max(hint.height() - folded, 0))
        return hint

    def set_provenance_open(self, opened: bool) -> None:
        self.prov_toggle.setChecked(opened)
        self.prov_toggle.setArrowType(Qt.ArrowType.DownArrow if opened else Qt.ArrowType.RightArrow)
        self.prov_fields.setVisible(opened)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not self._prov_chosen:
            self.set_provenance_open(event.size().height() >= FOLD_BELOW)

    def _with_copy(self, field: ElidedLabel, name: str, what: str) -> QWidget:
        """``field`` with a Copy button that puts its full (unelided) text on the clipboard."""
        button = QToolButton()
        button.setObjectName(name)
        button.setText(TEXT["copy"])
        button.setToolTip(TEXT["copy_tip"].format(what=TEXT[what]))
        button.setAutoRaise(True)
        button.clicked.connect(lambda: self._copy(field, what))
        self.copy_buttons.append(button)
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(field, 1)
        layout.addWidget(button)
        return row

    def _copy(self, field: ElidedLabel, what: str) -> None:
        QGuiApplication.clipboard().setText(field.full_text())
        self.sig_copied.emit(TEXT["copied"].format(what=TEXT[what]))

    @staticmethod
    def _ro_field(name: str) -> ElidedLabel:
        field = ElidedLabel()
        field.setObjectName(name)
        field.setTextInteractionFlags(_KEYBOARD_SELECTABLE)
        return field

    def focus_chain(self) -> list[QWidget]:
        """The pane's widgets in Tab order: buttons, body, provenance fields."""
        return [
            *self.buttons,
            self.body_view,
            self.prov_toggle,
            self.prov_ref,
            self.copy_buttons[0],
            self.prov_id,
            self.copy_buttons[1],
            self.prov_times,
            self.prov_path,
            self.copy_buttons[2],
        ]

    @staticmethod
    def _meta_html(row: FactRow) -> str:
        """The type · scope · freshness · revision line, in the scheme's colours now."""
        fact, muted = row.fact, tone("muted")
        meta = TEXT["meta"].format(
            type=escape(type_label(fact.type.value)), scope=escape(scope_label(fact.scope.value))
        )
        return (
            f"<span style='color:{muted}'>{meta} · </span>"
            f"<span style='color:{freshness_colour(row.freshness)}; font-weight:600'>"
            f"{freshness_label(row.freshness)}</span><span style='color:{muted}'>"
            f"{TEXT['meta_revision'].format(revision=fact.revision)}</span>"
        )

    def _restyle(self) -> None:
        if self._meta_row is not None:
            self.detail_meta.setText(self._meta_html(self._meta_row))

    def show_row(
        self,
        row: FactRow | None,
        conflicts: list[Conflict],
        *,
        empty: bool = False,
        loading: bool = False,
    ) -> None:
        """Show ``row`` (None: the empty state), with the overrides that concern it.

        ``empty``: the store holds no fact at all, so the pane says how to write the first one;
        ``loading``: the stores are still being read, so the pane says that (not "select a
        fact" over a list that is not there yet).
        """
        self.prov_box.setVisible(row is not None)
        self._meta_row = None
        if row is None:
            title, body = (
                ("loading_title", "loading_body")
                if loading
                else ("empty_title", "empty_body")
                if empty
                else ("none_title", "none_body")
            )
            self.detail_title.setText(TEXT[title])
            self.detail_meta.setText("")
            self.detail_desc.setText("")
            self.body_view.show_html(lambda: f"<p style='color:{tone('muted')}'>{TEXT[body]}</p>")
            return
        fact = row.fact
        self.detail_title.setText(fact.display_title)
        self._meta_row = row
        self.detail_meta.setText(self._meta_html(row))
        self.detail_desc.setText(fact.description)
        self.detail_desc.setVisible(bool(fact.description))
        self.body_view.setHtml(render_with_links(fact.body))  # bare http(s) URLs as links
        self.prov_ref.set_full_text(fact.ref)
        self.prov_id.set_full_text(fact.id)
        self.prov_revision.setText(str(fact.revision))
        self.times_caption.setText(TEXT["times"].format(offset=utc_offset(fact.updated_at)))
        self.prov_times.setText(
            f"{local_time_seconds(fact.created_at)}  /  {local_time_seconds(fact.updated_at)}"
        )
        self.prov_times.setToolTip(
            TEXT["times_tip"].format(
                created=format_time(fact.created_at) if fact.created_at else "—",
                updated=format_time(fact.updated_at) if fact.updated_at else "—",
            )
        )
        self.prov_path.set_full_text(str(row.entry.path))
        lines = []
        for c in conflicts:
            if fact.id == c.project_id:
                lines.append(TEXT["overrides"].format(ref=c.global_ref, key=conflict_key(c.key)))
            elif fact.id == c.global_id:
                lines.append(TEXT["overridden"].format(ref=c.project_ref, key=conflict_key(c.key)))
        self.prov_override.setText("\n".join(lines))
        self.prov_override.setVisible(bool(lines))
