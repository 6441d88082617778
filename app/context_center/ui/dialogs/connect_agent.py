"""Connect or disconnect an agent from the window: what will change, then a person's yes.

The Connections tab asks the engine for a dry run (``Engine.connect_agent(..., dry_run=True)``)
and shows it here: the agent and the scope, each config file with what will happen to it, and
the diff of every file. Nothing is written until the person presses Connect (or Disconnect);
then the tab runs the same call without ``dry_run``, which backs each changed file up first.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.widgets.diff_view import DiffView
from context_center.ui.widgets.markdown_view import escape

TEXT = Texts(
    "ConnectDialog",
    {
        "connect_title": QT_TRANSLATE_NOOP("ConnectDialog", "Connect {agent}"),
        "disconnect_title": QT_TRANSLATE_NOOP("ConnectDialog", "Disconnect {agent}"),
        "connect_text": QT_TRANSLATE_NOOP(
            "ConnectDialog",
            "Connect <b>{agent}</b> ({scope} configuration) to this home? Its config gets this "
            "program's MCP server{hooks}. Every other setting and comment stays, and each "
            "changed file is backed up first.",
        ),
        "hooks": QT_TRANSLATE_NOOP("ConnectDialog", " and its hooks"),
        "disconnect_text": QT_TRANSLATE_NOOP(
            "ConnectDialog",
            "Disconnect <b>{agent}</b> ({scope} configuration)? Exactly the entries connect "
            "writes are removed; every other setting and comment stays, and each changed file "
            "is backed up first.",
        ),
        "created": QT_TRANSLATE_NOOP("ConnectDialog", "{file} will be created"),
        "updated": QT_TRANSLATE_NOOP("ConnectDialog", "{file} will be changed"),
        "removed": QT_TRANSLATE_NOOP(
            "ConnectDialog", "{file} will be removed (nothing else is left in it)"
        ),
        "connect": QT_TRANSLATE_NOOP("ConnectDialog", "Connect"),
        "disconnect": QT_TRANSLATE_NOOP("ConnectDialog", "Disconnect"),
    },
)
SCOPES = Texts(
    "ConnectDialog",
    {
        "project": QT_TRANSLATE_NOOP("ConnectDialog", "the project's"),
        "user": QT_TRANSLATE_NOOP("ConnectDialog", "your user"),
    },
)


def changed_files(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The files of a dry run that the real run would write."""
    return [f for f in plan.get("files", []) if f.get("action") != "unchanged"]


class ConnectDialog(QDialog):
    """The dry run of a connect or disconnect, and the one button that carries it out."""

    def __init__(self, plan: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connectDialog")
        connect = plan.get("action") == "connect"
        agent = str(plan.get("agent", ""))
        scope = SCOPES.get(str(plan.get("scope", "")), str(plan.get("scope", "")))
        self.setWindowTitle(
            TEXT["connect_title" if connect else "disconnect_title"].format(agent=agent)
        )
        self.resize(760, 520)

        intro = TEXT["connect_text"] if connect else TEXT["disconnect_text"]
        hooks = TEXT["hooks"] if connect and agent == "claude-code" else ""
        self.intro = QLabel(intro.format(agent=escape(agent), scope=escape(scope), hooks=hooks))
        self.intro.setObjectName("connectIntro")
        self.intro.setWordWrap(True)
        lines = [
            TEXT[f["action"]].format(file=escape(str(f["file"])))
            for f in changed_files(plan)
            if f.get("action") in ("created", "updated", "removed")
        ]
        self.files = QLabel("<br>".join(f"• {line}" for line in lines))
        self.files.setObjectName("connectFiles")
        self.files.setWordWrap(True)
        self.diff = DiffView(self)
        self.diff.setObjectName("connectDiff")
        self.diff.set_unified(str(plan.get("diff", "")))

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button: QPushButton = buttons.addButton(
            TEXT["connect" if connect else "disconnect"], QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.apply_button.setObjectName("connectApply")
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setDefault(True)  # Return never writes a config by accident
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.files)
        layout.addWidget(self.diff, 1)
        layout.addWidget(buttons)
