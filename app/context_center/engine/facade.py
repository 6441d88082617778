"""The engine's one entry object per (home, workspace), used by the window, the CLI and agents.

Everything a front end does goes through one of these: the two fact stores (``memory``), the
instruction chain and the provider-visible prefix, recall, the approval queue and the
suggestion scan. Front ends add presentation only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.store.memory import Memory, MemoryView
from context_center.engine.store.paths import Layout, resolve_home

if TYPE_CHECKING:
    from context_center.engine.gate.approvals import ApprovalQueue
    from context_center.engine.instructions.prefix import Prefix
    from context_center.engine.instructions.resolve import Resolution
    from context_center.engine.recall import Recaller, RecallResult
    from context_center.engine.suggestions import ScanResult


class Engine:
    """Holds the layout and the small managers; every front end goes through one of these."""

    def __init__(self, home: str | Path | None = None, workspace: str | Path | None = None) -> None:
        self.home = resolve_home(home)
        # An explicit workspace is the instruction root as given; otherwise the root is the
        # nearest ancestor holding .git (of the current directory, or of a target).
        self.explicit_workspace = bool(workspace)
        self.cwd = Path.cwd().absolute()
        if workspace:
            self.workspace = Path(workspace).expanduser().absolute()
        else:
            from context_center.engine.instructions.resolve import find_workspace_root

            self.workspace = find_workspace_root(Path.cwd().absolute())
        self.layout = Layout(self.home, self.workspace)
        self.memory = Memory(self.layout)
        self._recaller: Recaller | None = None
        self._approvals: ApprovalQueue | None = None

    # -- facts -------------------------------------------------------------------------------

    def open(self, *, migrate: bool = False, persist_cache: bool = True) -> MemoryView:
        """Load both stores. With ``migrate`` (the window, mutating commands) legacy facts are
        upgraded in place first, which is safe because every rewrite re-checks the file's hash
        under the store lock."""
        if migrate:
            self.memory.migrate()
        return self.memory.load(persist_cache=persist_cache)

    # -- instructions and the stable prefix --------------------------------------------------

    def instructions(self, target: str | Path | None = None) -> Resolution:
        """The instruction chain that applies to ``target``: by default the current directory
        when it lies inside the workspace, else the workspace root."""
        from context_center.engine.instructions.resolve import resolve_instructions

        if target:
            where = Path(target).expanduser().absolute()
        elif self.cwd.is_relative_to(self.workspace):
            where = self.cwd
        else:
            where = self.workspace
        return resolve_instructions(
            self.home, self.workspace if self.explicit_workspace else None, where
        )

    def prefix(self, target: str | Path | None = None, view: MemoryView | None = None) -> Prefix:
        """The provider-visible stable prefix: stable guidance, instructions, memory index."""
        from context_center.engine.instructions.prefix import build_prefix

        view = view if view is not None else self.memory.load(persist_cache=False)
        return build_prefix(self.instructions(target), view.facts, view.conflicts)

    # -- recall ------------------------------------------------------------------------------

    @property
    def recaller(self) -> Recaller:
        """One incremental recall index per engine, backed by its on-disk cache."""
        if self._recaller is None:
            from context_center.engine.recall import Recaller

            self._recaller = Recaller(self.layout)
        return self._recaller

    def recall(
        self,
        message: str,
        *,
        view: MemoryView | None = None,
        persist: bool | None = None,
        **options: Any,
    ) -> RecallResult:
        """Auto-recall for one user turn over the active facts of both stores."""
        view = view if view is not None else self.memory.load()
        return self.recaller.recall(
            message, tuple(view.facts), view.conflicts, persist=persist, **options
        )

    # -- gated writes ------------------------------------------------------------------------

    @property
    def approvals(self) -> ApprovalQueue:
        if self._approvals is None:
            from context_center.engine.gate.approvals import ApprovalQueue

            self._approvals = ApprovalQueue(
                self.home, root=self.layout.approvals_dir, memory_for=self._memory_for
            )
        return self._approvals

    def _memory_for(self, workspace: Path) -> Memory:
        """Approving a write for this workspace goes through this engine's own stores, so
        their in-memory state sees it at once; other workspaces get stores of their own."""
        if str(workspace) == str(self.workspace):
            return self.memory
        return Memory(Layout(self.home, Path(workspace)))

    # -- suggestions -------------------------------------------------------------------------

    def scan_suggestions(
        self, *, claude_root: Path | None = None, codex_root: Path | None = None
    ) -> ScanResult:
        """Mine candidates from recent user turns. Writes nothing, not even a store cache; a
        remote workspace reads no local memory or instructions at all."""
        from context_center.engine.suggestions import remote_reason, scan
        from context_center.engine.suggestions.service import default_roots

        default_claude, default_codex = default_roots()
        claude = claude_root or default_claude
        codex = codex_root or default_codex
        if remote_reason(self.workspace):
            return scan(self.layout, [], [], claude_root=claude, codex_root=codex)
        facts = self.memory.load(persist_cache=False).facts
        bodies = [doc.body for doc in self.instructions(self.workspace).documents]
        return scan(self.layout, facts, bodies, claude_root=claude, codex_root=codex)
