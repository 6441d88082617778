"""What agents reach: the MCP server's tools and resources, the hooks, and their access log.

Every method here returns a provider-safe JSON object (``engine/agents/public.py``: public
fields and ``project/<name>.md`` references only, local paths redacted) and, given a
``caller``, records the access content-free (``engine/access_log.py``). Reads go through
``agent_view``, which a long-lived server can call on every request: it stats the two store
folders and reloads only a store that changed (``engine/agents/freshness.py``). Writes go
through the write gate exactly as ``agent remember``/``agent forget`` do.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.changes import Changes, FactChange, FactChangeKind
from context_center.engine.errors import InvalidRequest, NotFound
from context_center.engine.facade.agent_base import (
    SCOPE_RANK,
    AgentBase,
    normpath,
    scope_value,
    text_arg,
    type_value,
)
from context_center.engine.kinds import Scope

if TYPE_CHECKING:
    from context_center.engine.agents.caller import AgentCaller
    from context_center.engine.model import Fact

LIST_LIMIT = 50
LIST_MAX = 200
SEARCH_MAX = 50
SESSION_CONTEXT_CHARS = 9_000  # Claude Code shows hook output past 10,000 characters as a preview
_CURSOR = "after:"


def _limit(value: int | None, default: int, most: int, what: str) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRequest(f"{what} must be a whole number of at least 1")
    return min(value, most)


class AgentsAPI(AgentBase):
    """Reads, recall, instructions, gated writes and approval status for agents."""

    # -- reads ---------------------------------------------------------------------------------

    def agent_list(
        self,
        *,
        scope: str | None = None,
        type: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
        caller: AgentCaller | None = None,
    ) -> dict[str, Any]:
        """Active facts without bodies, project first then global, by name; a page of
        ``limit`` (50, at most 200) after ``cursor`` (the ``next_cursor`` of the last page)."""
        from context_center.engine.agents.public import fact_summary

        with self._access(caller, "memory_list") as acc:
            size = _limit(limit, LIST_LIMIT, LIST_MAX, "limit")
            scope_v, type_v = scope_value(scope), type_value(type)
            self.agent_view()
            st = self._agents
            start = bisect.bisect_right(st.order, _parse_cursor(cursor)) if cursor else 0
            page: list[Fact] = []
            next_cursor: str | None = None
            facts = st.facts
            for i in range(start, len(facts)):
                fact = facts[i]
                if (scope_v and fact.scope.value != scope_v) or (
                    type_v and fact.type.value != type_v
                ):
                    continue
                if len(page) == size:
                    next_cursor = _make_cursor(page[-1])
                    break
                page.append(fact)
            acc.refs = [f.ref for f in page]
            result: dict[str, Any] = {
                "facts": [fact_summary(f) for f in page],
                "next_cursor": next_cursor,
            }
            if not cursor:
                result["total"] = self._count(scope_v, type_v)
            return st.text.result(result)

    def _count(self, scope: str | None, type_: str | None) -> int:
        facts = self._agents.facts
        if not scope and not type_:
            return len(facts)
        return sum(
            1
            for f in facts
            if (not scope or f.scope.value == scope) and (not type_ or f.type.value == type_)
        )

    def agent_read(self, ref: str, *, caller: AgentCaller | None = None) -> dict[str, Any]:
        """One active fact by ``project/<name>.md``, ``global/<name>.md``, a name or an id,
        read fresh from its file."""
        from context_center.engine.agents.public import fact_summary

        with self._access(caller, "memory_read") as acc:
            self.agent_view()
            entry = self.memory.resolve(text_arg(ref, "ref"))
            acc.refs = [entry.fact.ref]
            return self._agents.text.result({"fact": fact_summary(entry.fact, body=True)})

    def agent_resource(self, scope: str, name: str, *, caller: AgentCaller | None = None) -> str:
        """``memory://<scope>/<name>``: the fact as Markdown with its frontmatter."""
        from context_center.engine.agents.public import fact_markdown

        with self._access(caller, "resource") as acc:
            scope_v = scope_value(scope)
            if scope_v is None:
                raise InvalidRequest(
                    "a memory resource is memory://project/<name> or memory://global/<name>"
                )
            self.agent_view()
            entry = self.memory.resolve(f"{scope_v}/{text_arg(name, 'name')}")
            acc.refs = [entry.fact.ref]
            return self._agents.text(fact_markdown(entry.fact))

    def agent_search(
        self,
        query: str,
        *,
        limit: int | None = None,
        scope: str | None = None,
        type: str | None = None,
        caller: AgentCaller | None = None,
    ) -> dict[str, Any]:
        """The memory tool's search: BM25 over active facts, best first, no budget."""
        query = text_arg(query, "query", allow_empty=True)
        with self._access(caller, "memory_search", query=query) as acc:
            size = _limit(limit, 20, SEARCH_MAX, "limit")
            scope_v, type_v = scope_value(scope), type_value(type)
            self.agent_view()
            st = self._agents
            hits = self.recaller.search(query, st.facts, scope=scope_v, type=type_v, limit=size)
            acc.refs = [h.fact.ref for h in hits]
            return st.text.result({"hits": [h.public_dict() for h in hits]})

    def agent_recall(
        self,
        message: str,
        *,
        max_facts: int | None = None,
        max_chars: int | None = None,
        caller: AgentCaller | None = None,
        one_shot: bool = False,
    ) -> dict[str, Any]:
        """Recall for one user turn: the block and trace a turn gets; the trace is recorded as
        this workspace's last recall. ``one_shot`` (a process that recalls once, like a hook)
        takes ``Engine.recall``'s path, the CLI's, instead of keeping a view warm."""
        message = text_arg(message, "message", allow_empty=True)
        with self._access(caller, "recall", query=message) as acc:
            options: dict[str, Any] = {}
            if max_facts is not None:
                options["max_facts"] = max_facts
            if max_chars is not None:
                options["max_chars"] = max_chars
            st = self._agents
            if one_shot:
                result = self.recall(message, **options)
            else:
                self.agent_view()
                assert st.view is not None
                result = self.recaller.recall(message, st.facts, st.view.conflicts, **options)
            acc.refs = [s.ref for s in result.trace.selected]
            acc.outcome = "ok" if result.block else "empty"
            return st.text.result(
                {"block": result.block, "trace": result.trace.model_dump(mode="json")}
            )

    def agent_instructions(
        self,
        target: str | None = None,
        *,
        agent: str | None = None,
        caller: AgentCaller | None = None,
    ) -> dict[str, Any]:
        """The instruction chain ``agent`` (reasonix by default, claude-code, codex) loads for
        ``target`` (a folder inside the workspace, relative to its root): labels, precedence,
        imports and diagnostics, no local paths."""
        from context_center.engine.instructions.prefix import render_instructions_json

        with self._access(caller, "instructions") as acc:
            resolution = self.instructions(self._agent_target(target), agent=agent or "reasonix")
            acc.refs = [doc.label for doc in resolution.documents]
            return self._agents.text.result(render_instructions_json(resolution))

    def agent_prefix(
        self,
        target: str | None = None,
        *,
        agent: str | None = None,
        caller: AgentCaller | None = None,
    ) -> dict[str, Any]:
        """What a session of ``agent`` (reasonix by default) starts with for ``target``: the
        provider-visible stable prefix and its length in characters."""
        with self._access(caller, "prefix"):
            view = self.agent_view()
            prefix = self.prefix(self._agent_target(target), view, agent=agent or "reasonix")
            return self._agents.text.result(prefix.public_dict())

    def _agent_target(self, target: str | None) -> Path:
        """A target folder an agent names: relative to the workspace root, and inside it."""
        if target is None or not str(target).strip() or str(target).strip() == ".":
            return self.workspace
        where = Path(str(target).strip()).expanduser()
        if not where.is_absolute():
            where = self.workspace / where
        where = Path(normpath(where))
        if not where.is_relative_to(self.workspace):
            raise InvalidRequest("the target must be a folder inside the workspace")
        return where

    def session_context(
        self, *, max_chars: int = SESSION_CONTEXT_CHARS, caller: AgentCaller | None = None
    ) -> str:
        """The stable guidance and memory index parts of the prefix, without the instruction
        files (an agent that loads those itself, like Claude Code, gets only what it lacks).
        Cut at a line to ``max_chars``, with a note of what was left out."""
        from context_center.engine.agents.public import clip_lines

        with self._access(caller, "SessionStart") as acc:
            view = self.agent_view()
            chain = self.instructions(self.workspace)
            empty = {"documents": (), "duplicates": (), "diagnostics": (), "files": (), "text": ""}
            bare = chain.model_copy(
                update={k: v for k, v in empty.items() if k in type(chain).model_fields}
            )
            text = self.prefix(self.workspace, view, resolution=bare).text
            acc.outcome = "ok" if text else "empty"
            return clip_lines(self._agents.text(text), max_chars)

    # -- gated writes --------------------------------------------------------------------------

    def agent_remember(
        self, fields: Mapping[str, Any], *, caller: AgentCaller
    ) -> Changes[dict[str, Any]]:
        """A create (or, with ``ref``/``id``, an update) through the write gate: applied,
        queued with its pending id, or refused with every reason; never echoes the content."""
        request: dict[str, Any] = {"operation": "create"}
        request.update({k: v for k, v in fields.items() if v is not None})
        request.update(caller.gate_fields())
        return self._agent_gate("remember", request, caller)

    def agent_forget(
        self, ref: str, *, expected_revision: int | None = None, caller: AgentCaller
    ) -> Changes[dict[str, Any]]:
        """Forgetting a fact always waits for a person (queued), unless refused."""
        request: dict[str, Any] = {"operation": "forget", "ref": ref, **caller.gate_fields()}
        if expected_revision is not None:
            request["expected_revision"] = expected_revision
        return self._agent_gate("forget", request, caller)

    def _agent_gate(
        self, tool: str, request: dict[str, Any], caller: AgentCaller
    ) -> Changes[dict[str, Any]]:
        with self._access(caller, tool) as acc:
            self.agent_view()
            changes = self.agent_write(request)
            decision = changes.value
            data = decision.public_dict()
            acc.outcome = decision.outcome.value
            acc.pending_id = decision.pending_id
            if decision.fact is not None:
                acc.refs = [decision.fact.ref]
            elif data.get("target_ref"):
                acc.refs = [str(data["target_ref"])]
            return Changes(
                self._agents.text.result(data),
                facts=changes.facts,
                approvals=changes.approvals,
            )

    def approval_status(
        self, pending_id: str, *, caller: AgentCaller | None = None
    ) -> dict[str, Any]:
        """pending / approved / rejected for an item this workspace's agents queued, and the
        resulting ref once approved. Never the content, never another workspace's item."""
        with self._access(caller, "approval_status") as acc:
            record = self.approvals.get(text_arg(pending_id, "pending_id"))
            if Path(record.workspace) != self.workspace:
                raise NotFound(f"no approval item {record.id} in this workspace")
            acc.pending_id = record.id
            data: dict[str, Any] = {
                "pending_id": record.id,
                "status": record.status.value,
                "operation": record.operation.value,
                "target_ref": record.target_ref,
                "queued_at": record.created_at,
                "reasons": [r.model_dump() for r in record.reasons],
            }
            decision = record.decision
            if decision is not None:
                data["decided_at"] = decision.decided_at
                if decision.reason:
                    data["reason"] = decision.reason
                result = decision.result or {}
                if result.get("ref"):
                    data["result_ref"] = result["ref"]
                    acc.refs = [str(result["ref"])]
                if result.get("revision") is not None:
                    data["result_revision"] = result["revision"]
            return self._agents.text.result(data)

    # -- Claude Code's auto-memory folder ------------------------------------------------------

    def claude_memory_write(
        self,
        tool_name: str,
        tool_input: Mapping[str, Any],
        *,
        cwd: str | Path,
        caller: AgentCaller,
    ) -> Changes[dict[str, Any]] | None:
        """A Write/Edit/MultiEdit into Claude Code's auto-memory folder for ``cwd``, routed
        through the gate: a low-risk create is saved in the project store (``applied``), not
        in that folder; anything else is queued for a person or refused. None: not such a
        write."""
        from context_center.engine.agents import claude_memory
        from context_center.engine.claude_memory.location import locate

        where = locate(Path(cwd))
        target = claude_memory.memory_file(tool_input, (where.folder, *where.tried))
        if target is None:
            return None
        with self._access(caller, "PreToolUse") as acc:
            self.agent_view()
            result = claude_memory.route(self, tool_name, tool_input, target, caller)
            acc.outcome = result["outcome"]
            acc.pending_id = result.get("pending_id")
            acc.refs = [result["file"]]
            facts: tuple[FactChange, ...] = ()
            if result["outcome"] == "applied" and "ref" in result:
                scope, _, file = str(result["ref"]).partition("/")
                name = file.removesuffix(".md")
                change = FactChange(
                    Scope(scope), name, str(result["id"]), FactChangeKind.CREATED, 1
                )
                facts = (change,)
                acc.refs = [result["file"], str(result["ref"])]
            return Changes(
                self._agents.text.result(result),
                facts=facts,
                approvals=result["outcome"] == "queued",
            )


def _make_cursor(fact: Fact) -> str:
    return f"{_CURSOR}{fact.ref}"


def _parse_cursor(cursor: str) -> tuple[int, str]:
    if not isinstance(cursor, str) or not cursor.startswith(_CURSOR):
        raise InvalidRequest("cursor must be the next_cursor of a previous page")
    ref = cursor[len(_CURSOR) :]
    scope, _, file = ref.partition("/")
    if scope not in SCOPE_RANK or not file.endswith(".md"):
        raise InvalidRequest("cursor must be the next_cursor of a previous page")
    return (SCOPE_RANK[scope], file[:-3])


__all__ = ["AgentsAPI"]
