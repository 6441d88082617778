"""Connections: which agents are wired to this home, and what agents did (the access log).

The upper table lists Claude Code, Codex and Cursor at project and user scope: whether their
config has this program's MCP server, whether it still points here (same home, same
program), and for Claude Code which hooks are in place. ``context-center connect AGENT``
writes them. The lower table is the access log of this workspace, newest first: time,
agent, tool or hook, the refs returned or written, the outcome (with the pending approval id
or the error code), and a query only as its length. Nothing in it is content.

The log is followed live: while the tab is shown, one ``stat`` a second tells whether an
agent (an MCP server, a hook, in another process) wrote to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget
from qasync import asyncSlot

from context_center.engine import Engine, EngineError
from context_center.ui.context import APPROVALS, FACTS, TRACE, WORKSPACE, alive, busy
from context_center.ui.dialogs.connect_agent import ConnectDialog, changed_files
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, lookup, translate
from context_center.ui.models.facts import local_time
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.style import tone
from context_center.ui.tabs.base import Tab
from context_center.ui.terms import plural
from context_center.ui.widgets.labels import tab_heading
from context_center.ui.widgets.shared_columns import share_columns
from context_center.ui.widgets.tables import make_table

POLL_MS = 1000
LOG_ROWS = 500
STATES = Texts(
    "ConnectionsTab",
    {
        "connected": QT_TRANSLATE_NOOP("ConnectionsTab", "connected, points here"),
        "differs": QT_TRANSLATE_NOOP("ConnectionsTab", "connected to another home or program"),
        "not_connected": QT_TRANSLATE_NOOP("ConnectionsTab", "not connected"),
        "unreadable": QT_TRANSLATE_NOOP("ConnectionsTab", "config cannot be read"),
    },
)
# the scheme's tones (``style.tone``), so the words stay readable in the dark palette too
STATE_TONES = {"connected": "fresh", "differs": "caution", "unreadable": "danger"}
OUTCOME_TONES = {"queued": "caution", "refused": "danger", "error": "danger"}


def _toned(tones: dict[str, str], key: str) -> str | None:
    return tone(tones[key]) if key in tones else None


CONFIG_SCOPES = Texts(  # where an agent's config lives: the repository, or the user's home
    "ConnectionsTab",
    {
        "project": QT_TRANSLATE_NOOP("ConnectionsTab", "project"),
        "user": QT_TRANSLATE_NOOP("ConnectionsTab", "user"),
    },
)
OUTCOMES = Texts(
    "ConnectionsTab",
    {
        "ok": QT_TRANSLATE_NOOP("ConnectionsTab", "ok"),
        "applied": QT_TRANSLATE_NOOP("ConnectionsTab", "applied"),
        "queued": QT_TRANSLATE_NOOP("ConnectionsTab", "queued"),
        "refused": QT_TRANSLATE_NOOP("ConnectionsTab", "refused"),
        "error": QT_TRANSLATE_NOOP("ConnectionsTab", "error"),
        "denied": QT_TRANSLATE_NOOP("ConnectionsTab", "denied"),
        "allowed": QT_TRANSLATE_NOOP("ConnectionsTab", "allowed"),
        "empty": QT_TRANSLATE_NOOP("ConnectionsTab", "empty"),
    },
)


@dataclass(frozen=True)
class ConnectionRow:
    agent: str
    scope: str
    state: str
    file: str
    hooks: str
    command: str


@dataclass(frozen=True)
class AccessRow:
    at: str
    agent: str
    tool: str
    refs: str
    outcome: str
    detail: str


# -- engine work (worker thread) ------------------------------------------------------------


def _connection_row(item: dict[str, Any]) -> ConnectionRow:
    hooks = item.get("hooks")
    return ConnectionRow(
        agent=str(item["agent"]),
        scope=str(item["scope"]),
        state=str(item["state"]),
        file=str(item["file"]),
        hooks=", ".join(hooks) if hooks else ("-" if hooks is not None else ""),
        command=str(item.get("command") or item.get("message") or ""),
    )


def _local_at(value: str) -> str:
    """The log's UTC time stamp in local time, as every other table shows times."""
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return value
    return local_time(when if when.tzinfo else when.replace(tzinfo=UTC))


def _access_row(item: dict[str, Any]) -> AccessRow:
    refs = [str(r) for r in item.get("refs") or []]
    if item.get("refs_more"):
        refs.append(translate("ConnectionsTab", "+{n} more").format(n=item["refs_more"]))
    detail = []
    if item.get("pending_id"):
        detail.append(str(item["pending_id"]))
    if item.get("error"):
        detail.append(str(item["error"]))
    query = item.get("query")
    if isinstance(query, dict) and "length" in query:
        detail.append(
            translate("ConnectionsTab", "query of {n} characters").format(n=query["length"])
        )
    via = str(item.get("via") or "")
    tool = str(item.get("tool") or "")
    return AccessRow(
        at=_local_at(str(item.get("at") or "")),
        agent=str(item.get("agent") or ""),
        tool=f"{tool} ({via})" if via else tool,
        refs=", ".join(refs),
        outcome=str(item.get("outcome") or ""),
        detail="; ".join(detail),
    )


def what_would_change(engine: Engine, agent: str, scope: str) -> tuple[bool, bool]:
    """(connecting would write something, disconnecting would): dry runs, nothing written;
    neither for a config that cannot be read (its row says why)."""
    try:
        on = engine.connect_agent(agent, scope, dry_run=True).value
        off = engine.disconnect_agent(agent, scope, dry_run=True).value
    except EngineError:
        return False, False
    return bool(changed_files(on)), bool(changed_files(off))


def load_connections(engine: Engine) -> tuple[list[ConnectionRow], list[AccessRow]]:
    connections = [_connection_row(c) for c in engine.agent_connections()]
    log = [_access_row(e) for e in engine.access_log(limit=LOG_ROWS)]
    return connections, log


def _button(text: str, name: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name)
    button.setToolTip(tip)
    return button


# -- the tab ----------------------------------------------------------------------------------


class ConnectionsTab(Tab):
    """Agents wired to this home and their content-free access log, followed live."""

    title = QT_TRANSLATE_NOOP("MainWindow", "Connections")
    flags = frozenset({TRACE, APPROVALS, FACTS, WORKSPACE})

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("connectionsTab")
        self._signature: tuple[int, int] | None = None

        self.reload_button = QPushButton(translate("ConnectionsTab", "Reload"))
        self.reload_button.setObjectName("reloadConnections")
        self.reload_button.clicked.connect(self._on_reload)
        self.connect_button = _button(
            translate("ConnectionsTab", "Connect…"),
            "connectAgent",
            translate(
                "ConnectionsTab",
                "Write this program's MCP server (and Claude Code's hooks) into the selected "
                "agent's config, after showing what changes",
            ),
        )
        self.connect_button.clicked.connect(self._on_connect)
        self.disconnect_button = _button(
            translate("ConnectionsTab", "Disconnect…"),
            "disconnectAgent",
            translate(
                "ConnectionsTab",
                "Remove exactly what connect wrote from the selected agent's config, after "
                "showing what changes",
            ),
        )
        self.disconnect_button.clicked.connect(self._on_disconnect)
        for button in (self.connect_button, self.disconnect_button):
            button.setEnabled(False)  # until a row is selected and a dry run says so
        top = QHBoxLayout()
        top.addWidget(tab_heading(lookup("MainWindow", self.title)))
        top.addStretch(1)
        top.addWidget(self.connect_button)
        top.addWidget(self.disconnect_button)
        top.addWidget(self.reload_button)

        hint = QLabel(
            translate(
                "ConnectionsTab",
                "Agents use this home through its MCP server and, for Claude Code, its hooks. "
                "Select an agent and press Connect… (or run `context-center connect "
                "claude-code`, codex, cursor); Disconnect… removes exactly what connect wrote.",
            )
        )
        hint.setObjectName("hint")
        hint.setWordWrap(True)

        self.connections = RowTableModel[ConnectionRow](
            [
                Column(QT_TRANSLATE_NOOP("Columns", "Agent"), lambda r: r.agent),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Scope"),
                    lambda r: CONFIG_SCOPES.get(r.scope, r.scope),
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "State"),
                    lambda r: STATES.get(r.state, r.state),
                    colour=lambda r: _toned(STATE_TONES, r.state),
                ),
                Column(QT_TRANSLATE_NOOP("Columns", "Config"), lambda r: r.file),
                Column(QT_TRANSLATE_NOOP("Columns", "Hooks"), lambda r: r.hooks),
                Column(QT_TRANSLATE_NOOP("Columns", "Command"), lambda r: r.command),
            ],
            self,
        )
        self.connections_view = make_table(self.connections, name="connectionsTable", stretch=5)
        # state, config file and hooks take their text's width (up to a share of the room);
        # the command, often empty, takes the rest instead of squeezing "~/.claude.json"
        share_columns(self.connections_view, {2: 0.3, 3: 0.4, 4: 0.3}, 5)
        self.connections_view.selectionModel().selectionChanged.connect(
            lambda *_: self._update_buttons()
        )
        self._can: tuple[bool, bool] = (False, False)  # (connect, disconnect) for the selection
        self._wiring = False  # a connect or disconnect is under way

        self.log_label = QLabel()
        self.log_label.setObjectName("accessLogLabel")
        self.log = RowTableModel[AccessRow](
            [
                Column(QT_TRANSLATE_NOOP("Columns", "Time"), lambda r: r.at),
                Column(QT_TRANSLATE_NOOP("Columns", "Agent"), lambda r: r.agent),
                Column(QT_TRANSLATE_NOOP("Columns", "Tool"), lambda r: r.tool),
                Column(QT_TRANSLATE_NOOP("Columns", "Refs"), lambda r: r.refs),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Outcome"),
                    lambda r: OUTCOMES.get(r.outcome, r.outcome),
                    colour=lambda r: _toned(OUTCOME_TONES, r.outcome),
                ),
                Column(QT_TRANSLATE_NOOP("Columns", "Detail"), lambda r: r.detail),
            ],
            self,
        )
        self.log_view = make_table(
            self.log,
            name="accessLogTable",
            stretch=3,
            widths={0: 150, 1: 110, 2: 190, 4: 80, 5: 260},
        )

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addWidget(hint)
        layout.addWidget(self.connections_view)
        layout.addWidget(self.log_label)
        layout.addWidget(self.log_view, 1)

        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        """Follow the access log written by other processes (one stat, only while shown)."""
        if not self.isVisible():
            return
        signature = self.ctx.engine.access_log_signature()
        if signature != self._signature:
            self._signature = signature
            self.refresh_now()

    @asyncSlot()
    async def _on_reload(self) -> None:
        self.refresh_now()

    # -- connect and disconnect ---------------------------------------------------------------

    def selected_connection(self) -> ConnectionRow | None:
        rows = self.connections_view.selectionModel().selectedRows()
        return self.connections.rows[rows[0].row()] if rows else None

    @asyncSlot()
    async def _update_buttons(self) -> None:
        """Enable Connect / Disconnect for the selected row when the dry run would write."""
        row = self.selected_connection()
        self._can = (False, False)
        self.connect_button.setEnabled(False)
        self.disconnect_button.setEnabled(False)
        if row is None:
            return
        can = await self.ctx.run(what_would_change, self.ctx.engine, row.agent, row.scope)
        if not alive(self):  # the window closed meanwhile
            return
        if self.selected_connection() == row:  # still the same row once the answer is back
            self._can = can
            self.update_actions()

    def update_actions(self) -> None:
        """(``busy`` calls this after a handler) the buttons from the last dry run; none
        while a connect or disconnect is under way (a refresh meanwhile must not offer a
        second one)."""
        self.connect_button.setEnabled(self._can[0] and not self._wiring)
        self.disconnect_button.setEnabled(self._can[1] and not self._wiring)

    @asyncSlot()
    @busy("connect_button", "disconnect_button")
    async def _on_connect(self) -> None:
        await self._wire(connect=True)

    @asyncSlot()
    @busy("connect_button", "disconnect_button")
    async def _on_disconnect(self) -> None:
        await self._wire(connect=False)

    async def _wire(self, *, connect: bool) -> None:
        row = self.selected_connection()
        if row is None:
            return
        self._wiring = True
        try:
            done = await self._approved(row, connect)
        finally:
            self._wiring = False
        if done is None:
            return
        files = ", ".join(str(f["file"]) for f in changed_files(done))
        self.ctx.status(
            (
                translate("ConnectionsTab", "Connected {agent} ({scope}): {files} written")
                if connect
                else translate("ConnectionsTab", "Disconnected {agent} ({scope}): {files} written")
            ).format(agent=row.agent, scope=CONFIG_SCOPES.get(row.scope, row.scope), files=files)
        )
        self._can = (False, False)
        self.refresh_now()

    async def _approved(self, row: ConnectionRow, connect: bool) -> dict[str, Any] | None:
        """Show the dry run; on the person's yes, write -- but only what they saw: when the
        config changed meanwhile (an agent or an editor wrote it), the new dry run is shown
        instead. None when nothing was written."""
        engine = self.ctx.engine
        call = engine.connect_agent if connect else engine.disconnect_agent
        shown: str | None = None
        for _ in range(3):
            plan = (await self.ctx.run(call, row.agent, row.scope, dry_run=True)).value
            if not changed_files(plan):  # done elsewhere since the buttons were set
                self.ctx.status(
                    translate(
                        "ConnectionsTab", "Nothing to change: {agent} ({scope}) is as asked"
                    ).format(agent=row.agent, scope=CONFIG_SCOPES.get(row.scope, row.scope))
                )
                self._can = (False, False)
                self.refresh_now()
                return None
            if plan["diff"] != shown:
                dialog = ConnectDialog(plan, self)
                if await self.ctx.exec_dialog(dialog) != ConnectDialog.DialogCode.Accepted:
                    return None
                shown = plan["diff"]
                continue  # looked at: check once more that it is still what will be written
            return (await self.ctx.run(call, row.agent, row.scope)).value
        self.ctx.status(
            translate(
                "ConnectionsTab", "{file} kept changing while you looked: nothing was written"
            ).format(file=", ".join(str(f["file"]) for f in changed_files(plan)))
        )
        return None

    async def refresh(self) -> None:
        self._signature = self.ctx.engine.access_log_signature()
        connections, log = await self.ctx.run(load_connections, self.ctx.engine)
        selected = self.selected_connection()
        self.connections.set_rows(connections)
        at = [i for i, r in enumerate(connections) if selected and r.agent == selected.agent
              and r.scope == selected.scope]  # fmt: skip
        if at:  # the same agent and scope stay selected (which sets the buttons again)
            self.connections_view.selectRow(at[0])
        else:
            self._update_buttons()
        self.log.set_rows(log)
        count = len(log)
        self.log_label.setText(
            plural(
                count,
                translate("ConnectionsTab", "Access log: the one agent access so far"),
                translate(
                    "ConnectionsTab", "Access log, newest first: the last {n} agent accesses"
                ),
            ).format(n=count)
            if count
            else translate("ConnectionsTab", "Access log: no agent has used this workspace yet")
        )
