"""What every agent-facing Engine method shares: the provider-safe text, the fresh view of both
stores a long-lived server reads on every request, and the content-free access log.

``agent_view`` stats the two store folders and reloads only a store that changed
(``engine/agents/freshness.py``); ``_access`` records one access (``engine/access_log.py``),
written by a background thread in a long-lived server (``start_agent_session``).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.errors import EngineError, InvalidRequest
from context_center.engine.facade.connections import ConnectionsAPI
from context_center.engine.facade.gate import GateAPI
from context_center.engine.facade.instructions import InstructionsAPI
from context_center.engine.facade.recall import RecallAPI

if TYPE_CHECKING:
    from context_center.engine.access_log import AccessLog
    from context_center.engine.agents.caller import AgentCaller
    from context_center.engine.agents.freshness import FolderWatch
    from context_center.engine.agents.public import ProviderText
    from context_center.engine.model import Fact
    from context_center.engine.store.memory import MemoryView

SCOPE_RANK = {"project": 0, "global": 1}


@dataclass
class _Access:
    """What one access did, filled in by the method that serves it."""

    outcome: str = "ok"
    refs: list[str] = field(default_factory=list)
    pending_id: str | None = None
    error: str | None = None


@dataclass
class _AgentState:
    watch: FolderWatch
    text: ProviderText
    log: AccessLog
    lock: threading.RLock = field(default_factory=threading.RLock)
    view: MemoryView | None = None
    facts: tuple[Fact, ...] = ()
    order: list[tuple[int, str]] = field(default_factory=list)  # list order keys of ``view``


def _order_key(fact: Fact) -> tuple[int, str]:
    return (SCOPE_RANK[fact.scope.value], fact.name)


class AgentBase(ConnectionsAPI, InstructionsAPI, RecallAPI, GateAPI):
    """State and logging for the agent-facing methods; ``AgentsAPI`` is placed first among
    ``Engine``'s bases, ahead of the areas it builds on (instructions, recall, the gate)."""

    _agent_state: _AgentState | None = None

    # -- state ---------------------------------------------------------------------------------

    @property
    def _agents(self) -> _AgentState:
        if self._agent_state is None:
            from context_center.engine.access_log import AccessLog
            from context_center.engine.agents.freshness import FolderWatch
            from context_center.engine.agents.public import ProviderText

            self._agent_state = _AgentState(
                FolderWatch(),
                ProviderText(
                    self.home,
                    self.workspace,
                    (self.layout.project_store, self.layout.global_store, self.layout.cache_dir),
                ),
                AccessLog(self.layout.state_dir),
            )
        return self._agent_state

    def agent_view(self) -> MemoryView:
        """Both stores as they are on disk now, for a long-lived process: a store is read again
        only when its folder changed since it was last read (one ``stat`` per store)."""
        st = self._agents
        with st.lock:
            changed = st.view is None
            for store in (self.memory.project, self.memory.global_):
                if st.watch.changed(store.root):
                    taken = st.watch.before_read(store.root)
                    store.load()
                    st.watch.read_done(store.root, taken)
                    changed = True
            if changed or st.view is None:
                st.view = self.memory.view()
                st.facts = tuple(st.view.facts)
                st.order = [_order_key(f) for f in st.facts]
            return st.view

    def start_agent_session(self) -> None:
        """A long-lived server: access-log lines are written by a background thread, so no
        request waits for the log's fsync. ``close_agent_session`` writes what is left."""
        self._agents.log.start_background()

    def close_agent_session(self) -> None:
        if self._agent_state is not None:
            self._agent_state.log.close()

    # -- the access log ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _access(
        self, caller: AgentCaller | None, tool: str, *, query: str | None = None
    ) -> Iterator[_Access]:
        record = _Access()
        started = time.perf_counter()
        try:
            yield record
        except EngineError as exc:
            record.outcome, record.error = "error", exc.code
            raise
        except Exception:
            record.outcome, record.error = "error", "internal_error"
            raise
        finally:
            if caller is not None:
                self.record_access(
                    caller,
                    tool,
                    outcome=record.outcome,
                    refs=record.refs,
                    pending_id=record.pending_id,
                    error=record.error,
                    query=query,
                    elapsed_ms=(time.perf_counter() - started) * 1000,
                )

    def record_access(
        self,
        caller: AgentCaller,
        tool: str,
        *,
        outcome: str,
        refs: list[str] | tuple[str, ...] = (),
        pending_id: str | None = None,
        error: str | None = None,
        query: str | None = None,
        elapsed_ms: float | None = None,
    ) -> None:
        """One line in this workspace's access log (content-free; ``query`` is digested)."""
        from context_center.engine.access_log import AccessEntry

        self._agents.log.append(
            AccessEntry(
                via=caller.via,
                tool=tool,
                agent=caller.agent,
                client=caller.client,
                outcome=outcome,
                refs=tuple(refs),
                pending_id=pending_id,
                error=error,
                query=query,
                elapsed_ms=elapsed_ms,
            )
        )

    def access_log_signature(self) -> tuple[int, int] | None:
        """(mtime, size) of the access log, or None: a cheap "did agents do anything?" for a
        view that follows it."""
        try:
            st = os.stat(self._agents.log.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def access_log(self, *, limit: int = 500) -> list[dict[str, Any]]:
        """This workspace's agent accesses, newest first (for the Connections view)."""
        return self._agents.log.entries(limit=limit)


def normpath(path: Path) -> str:
    return os.path.normpath(os.fspath(path))


def text_arg(value: Any, what: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise InvalidRequest(f"{what} must be a string")
    if not allow_empty and not value.strip():
        raise InvalidRequest(f"{what} must not be empty")
    return value


def scope_value(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if value not in ("project", "global"):
        raise InvalidRequest(f"scope {value!r} is not one of project, global")
    return value


def type_value(value: str | None) -> str | None:
    from context_center.engine.kinds import FactType

    if value is None or value == "":
        return None
    if value not in {t.value for t in FactType}:
        raise InvalidRequest(f"type {value!r} is not one of {', '.join(t.value for t in FactType)}")
    return value
