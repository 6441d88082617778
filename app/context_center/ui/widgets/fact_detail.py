"""The Memory tab's detail pane: one fact's title, meta line, body and provenance."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from context_center.engine import Conflict, format_time
from context_center.ui.models.facts import FRESHNESS_COLORS, FactRow
from context_center.ui.widgets.elided import ElidedLabel
from context_center.ui.widgets.markdown_view import SafeBrowser


class FactDetail(QFrame):
    """Shows one fact (or the empty state); ``buttons`` sit beside the title."""

    def __init__(self, buttons: Iterable[QPushButton]) -> None:
        super().__init__()
        self.setObjectName("detailPane")
        self.detail_title = QLabel()
        self.detail_title.setObjectName("detailTitle")
        self.detail_title.setWordWrap(True)
        self.detail_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_meta = QLabel()
        self.detail_meta.setObjectName("detailMeta")
        self.detail_meta.setTextFormat(Qt.TextFormat.RichText)
        self.detail_meta.setWordWrap(True)
        self.detail_desc = QLabel()
        self.detail_desc.setObjectName("detailDescription")
        self.detail_desc.setWordWrap(True)
        self.body_view = SafeBrowser()
        self.body_view.setObjectName("factBody")
        self.body_view.setMinimumHeight(90)

        self.prov_id = self._ro_field("provId")
        self.prov_ref = self._ro_field("provRef")
        self.prov_path = self._ro_field("provPath")
        self.prov_revision = QLabel()
        self.prov_revision.setObjectName("provRevision")
        self.prov_times = QLabel()
        self.prov_times.setObjectName("provTimes")
        self.prov_override = QLabel()
        self.prov_override.setObjectName("provOverride")
        self.prov_override.setWordWrap(True)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setHorizontalSpacing(12)
        form.setVerticalSpacing(6)
        form.addRow("Reference", self.prov_ref)
        form.addRow("ID", self.prov_id)
        form.addRow("Revision", self.prov_revision)
        form.addRow("Created / updated", self.prov_times)
        form.addRow("Stored at", self.prov_path)
        self.prov_box = QFrame()
        self.prov_box.setObjectName("provenance")
        prov_layout = QVBoxLayout(self.prov_box)
        prov_layout.setContentsMargins(10, 8, 10, 8)
        prov_caption = QLabel("Provenance")
        prov_caption.setObjectName("sectionCaption")
        prov_layout.addWidget(prov_caption)
        prov_layout.addLayout(form)
        prov_layout.addWidget(self.prov_override)

        header = QHBoxLayout()
        header.setSpacing(6)
        header.addWidget(self.detail_title, 1, Qt.AlignmentFlag.AlignTop)
        for button in buttons:
            header.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.setSpacing(8)
        layout.addLayout(header)
        layout.addWidget(self.detail_meta)
        layout.addWidget(self.detail_desc)
        layout.addWidget(self.body_view, 1)
        layout.addWidget(self.prov_box)

    @staticmethod
    def _ro_field(name: str) -> ElidedLabel:
        field = ElidedLabel()
        field.setObjectName(name)
        return field

    def show_row(self, row: FactRow | None, conflicts: list[Conflict]) -> None:
        """Show ``row`` (None: the empty state), with the overrides that concern it."""
        has = row is not None
        self.prov_box.setVisible(has)
        if row is None:
            self.detail_title.setText("No fact selected")
            self.detail_meta.setText("")
            self.detail_desc.setText("")
            self.body_view.setHtml(
                "<p style='color:#57606a'>Select a fact to see its body and where it comes "
                "from, or create one with <b>New fact…</b>.</p>"
            )
            return
        fact = row.fact
        self.detail_title.setText(fact.display_title)
        color = FRESHNESS_COLORS.get(row.freshness, "#57606a")
        self.detail_meta.setText(
            f"<span style='color:#57606a'>type {escape(fact.type.value)} · "
            f"scope {escape(fact.scope.value)}"
            f" · </span><span style='color:{color}; font-weight:600'>{row.freshness}</span>"
            f"<span style='color:#57606a'> · revision {fact.revision}</span>"
        )
        self.detail_desc.setText(fact.description)
        self.detail_desc.setVisible(bool(fact.description))
        self.body_view.set_markdown(fact.body)
        self.prov_ref.set_full_text(fact.ref)
        self.prov_id.set_full_text(fact.id)
        self.prov_revision.setText(str(fact.revision))
        created = format_time(fact.created_at) if fact.created_at else "—"
        updated = format_time(fact.updated_at) if fact.updated_at else "—"
        self.prov_times.setText(f"{created}  /  {updated}")
        self.prov_path.set_full_text(str(row.entry.path))
        notes = [c for c in conflicts if fact.id in (c.project_id, c.global_id)]
        lines = []
        for c in notes:
            if fact.id == c.project_id:
                lines.append(
                    f"⚠ Overrides {c.global_ref} here (same {c.key}); recall uses this fact."
                )
            else:
                lines.append(
                    f"⚠ Overridden here by {c.project_ref} (same {c.key}); other workspaces "
                    "still use this fact."
                )
        self.prov_override.setText("\n".join(lines))
        self.prov_override.setVisible(bool(lines))
